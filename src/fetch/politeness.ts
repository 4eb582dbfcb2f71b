/**
 * Per-host politeness shared by every process on a store: a host's next turn, spaced by its
 * Crawl-delay and pushed out by 429/503 `Retry-After`. A store that keeps turns (MemoryStore,
 * RedisStore) keeps them for all its users; otherwise they are kept in this process.
 */
import { MemoryStore } from '../cache/index.ts';
import type { CacheStore } from '../cache/index.ts';
import { DAY, MINUTE, SECOND, parseRetryAfter } from './files/lifetimes.ts';

/** How turns are spaced and how long a host is left alone after it asks for a pause. */
export interface PolitenessPolicy {
  /** Longest Crawl-delay honoured (a file asking for more gets this). Default 60 s. */
  maxCrawlDelayMs: number;
  /** Pause after a 429 or 503 without a usable `Retry-After`. Default 1 minute. */
  defaultBackOffMs: number;
  /** Longest pause a `Retry-After` can ask for. Default 1 day. */
  maxBackOffMs: number;
}

export const DEFAULT_POLITENESS: PolitenessPolicy = {
  maxCrawlDelayMs: MINUTE,
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
    }
  | {
      /** Not yet. */
      kind: 'wait';
      /** How long until the host's next turn. */
      waitMs: number;
      /** The host's Crawl-delay, in ms (0 without one). */
      crawlDelayMs: number;
    };

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

/** Crawl-delay (seconds, as the file gives it) as the interval between turns. */
export function crawlDelayInterval(seconds: number | undefined, policy: PolitenessPolicy): number {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.min(seconds * SECOND, policy.maxCrawlDelayMs);
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
