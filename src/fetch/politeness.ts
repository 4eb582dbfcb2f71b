/**
 * Per-host politeness shared by every process on a store: a host's next turn, spaced by its
 * Crawl-delay and pushed out by 429/503 `Retry-After`. A store that keeps turns (MemoryStore,
 * RedisStore) keeps them for all its users; otherwise they are kept in this process.
 */
import { MemoryStore } from '../cache/index.ts';
import type { CacheStore } from '../cache/index.ts';
import type { RobotsState } from './files/state.ts';
import { DAY, MINUTE, SECOND, parseRetryAfter } from './files/lifetimes.ts';

/** How turns are spaced and how long a host is left alone after it asks for a pause. */
export interface PolitenessPolicy {
  /**
   * Longest Crawl-delay honoured. A file asking for more is not crawled faster than it asks:
   * its host is deferred (`Turn` `over-limit`, a deferral `why: 'crawl-delay-over-limit'`)
   * until the file is read again, unless `shortenCrawlDelay`.
   * @default 86_400_000 (a day)
   */
  maxCrawlDelayMs: number;
  /**
   * Crawl a host whose Crawl-delay is above `maxCrawlDelayMs` at `maxCrawlDelayMs`, faster
   * than it asks: each such turn says so (`Turn.askedMs`, and the client's
   * `onShortenedCrawlDelay`).
   * @default false
   */
  shortenCrawlDelay: boolean;
  /** Pause after a 429 or 503 without a usable `Retry-After`. Default 1 minute. */
  defaultBackOffMs: number;
  /** Longest pause a `Retry-After` can ask for. Default 1 day. */
  maxBackOffMs: number;
}

export const DEFAULT_POLITENESS: PolitenessPolicy = {
  maxCrawlDelayMs: DAY,
  shortenCrawlDelay: false,
  defaultBackOffMs: MINUTE,
  maxBackOffMs: DAY,
};

/** Page statuses that ask a crawler to slow down for the whole host (`RobotsClient.backOff`). */
export const SLOW_DOWN = new Set([429, 503]);

/** What `RobotsClient.turn` answers: go now (the turn is taken) or wait and ask again. */
export type Turn =
  | {
      /** Go now: the turn is taken. */
      kind: 'go';
      /** The host's Crawl-delay, in ms (0 without one): the spacing between turns. */
      crawlDelayMs: number;
      /** The Crawl-delay the file asked for, when `shortenCrawlDelay` shortened it. */
      askedMs?: number;
    }
  | {
      /** Not yet. */
      kind: 'wait';
      /** How long until the host's next turn. */
      waitMs: number;
      /** The host's Crawl-delay, in ms (0 without one). */
      crawlDelayMs: number;
      /** The Crawl-delay the file asked for, when `shortenCrawlDelay` shortened it. */
      askedMs?: number;
    }
  | {
      /**
       * The file asks for a Crawl-delay above `politeness.maxCrawlDelayMs`: the host is not
       * crawled (no turn is taken) until the file is read again.
       */
      kind: 'over-limit';
      /** The Crawl-delay the file asks for. */
      askedMs: number;
      /** When to ask again: when the file is read again (its cache lifetime). */
      waitMs: number;
    };

/** A host's Crawl-delay under a policy: honoured, shortened (opt-in), or over the limit. */
export type CrawlDelay =
  | { kind: 'honoured'; ms: number }
  | { kind: 'shortened'; ms: number; askedMs: number }
  | { kind: 'over-limit'; askedMs: number };

type TurnKeeper = Required<Pick<CacheStore, 'takeTurn' | 'holdOff'>>;

/** The store's turns when it keeps them, else turns of this process only. */
export function turnKeeper(store: CacheStore): TurnKeeper {
  if (store.takeTurn && store.holdOff) {
    return {
      takeTurn: (key, ms) => store.takeTurn!(key, ms),
      holdOff: (key, ms) => store.holdOff!(key, ms),
    };
  }
  return new MemoryStore();
}

/** Crawl-delay (seconds, as the file gives it) as the interval between turns, or over the limit. */
export function crawlDelayOf(seconds: number | undefined, policy: PolitenessPolicy): CrawlDelay {
  // An absurd value (Infinity, 1e300) is a delay over any limit, not a number to honour.
  if (seconds === undefined || Number.isNaN(seconds) || seconds <= 0) {
    return { kind: 'honoured', ms: 0 };
  }
  const askedMs = seconds * SECOND;
  if (askedMs <= policy.maxCrawlDelayMs) return { kind: 'honoured', ms: askedMs };
  return policy.shortenCrawlDelay
    ? { kind: 'shortened', ms: policy.maxCrawlDelayMs, askedMs }
    : { kind: 'over-limit', askedMs };
}

/** How long to leave a host alone after it answered 429/503 with this `Retry-After`. */
export function backOffDelay(
  retryAfter: string | number | undefined,
  now: number,
  policy: PolitenessPolicy,
): number {
  const asked =
    typeof retryAfter === 'number'
      ? Number.isFinite(retryAfter) && retryAfter >= 0
        ? retryAfter * SECOND
        : undefined
      : parseRetryAfter(retryAfter, now);
  return Math.min(asked ?? policy.defaultBackOffMs, policy.maxBackOffMs);
}

/** What a host's turn is decided from: the store's turns, the policy, the clock. */
export class HostTurns {
  readonly #turns: TurnKeeper;

  constructor(
    store: CacheStore,
    readonly policy: PolitenessPolicy,
    readonly now: () => number,
    readonly onShortened?: (shortened: { origin: string; askedMs: number; usedMs: number }) => void,
  ) {
    this.#turns = turnKeeper(store);
  }

  /**
   * The turn of the host of `state`, whose file asks for `seconds` of Crawl-delay for the
   * client's names: taken when it has come; `over-limit` (none taken) until the file is read
   * again when it asks for more than `maxCrawlDelayMs`, unless `shortenCrawlDelay`.
   */
  async turnFor(state: RobotsState, seconds: number | undefined): Promise<Turn> {
    const delay = crawlDelayOf(seconds, this.policy);
    const { origin } = state.location;
    if (delay.kind === 'over-limit') {
      const waitMs = Math.max(state.entry.expiresAt - this.now(), SECOND);
      return { kind: 'over-limit', askedMs: delay.askedMs, waitMs };
    }
    const crawlDelayMs = delay.ms;
    const waitMs = await this.#turns.takeTurn(origin, crawlDelayMs);
    if (delay.kind === 'shortened') {
      this.onShortened?.({ origin, askedMs: delay.askedMs, usedMs: crawlDelayMs });
    }
    const asked = delay.kind === 'shortened' ? { askedMs: delay.askedMs } : {};
    return waitMs > 0
      ? { kind: 'wait', waitMs, crawlDelayMs, ...asked }
      : { kind: 'go', crawlDelayMs, ...asked };
  }

  /** Holds `origin` off for its `Retry-After` (see `backOffDelay`); answers the pause. */
  async backOff(origin: string, retryAfter?: string | number): Promise<number> {
    const ms = backOffDelay(retryAfter, this.now(), this.policy);
    await this.#turns.holdOff(origin, ms);
    return ms;
  }
}
