import {
  isInvalidUrlError,
  isRefusedAddressError,
  type CheckResult,
  type RobotsClient,
} from '../fetch/index.ts';

/** What to do with a request whose turn has come. */
export type Admission =
  /**
   * Crawl it now (the host's turn is taken); `spacingMs`: the host's Crawl-delay, which its
   * sends keep too (see `SendSpacing`).
   */
  | { kind: 'go'; spacingMs?: number }
  /** The robots.txt disallows it: Crawlee's own robots check skips it (never requested). */
  | { kind: 'disallowed' }
  /** Not now: put it back in the queue after `ms`, untouched (no retry counted). */
  | {
      kind: 'defer';
      ms: number;
      why: DeferReason;
      /** For the host's turns: the spacing between them (its Crawl-delay), so waiting requests take successive turns. */
      spacingMs?: number;
      error?: string;
    };

/** Why a request waits: its robots.txt cannot be read, its host's turn, or the store failed. */
export type DeferReason = 'robots-txt-unreachable' | 'politeness' | 'store-error';

/** Shortest deferral, so that a robots.txt failing fast is not asked again in a tight loop. */
const MIN_DEFER_MS = 1_000;
/** How long a request waits when the store (or anything unforeseen) fails: never allowed. */
const ERROR_DEFER_MS = 5_000;

/**
 * Whether a request may go now: its robots.txt verdict (fetched or cached), then the host's
 * turn (Crawl-delay, and pauses after 429/503, shared through the client's store). While the
 * robots.txt is unreachable the request waits until the client tries the file again.
 */
export async function admit(client: RobotsClient, url: string): Promise<Admission> {
  let state;
  try {
    state = await client.robotsFor(url);
  } catch (error) {
    // A URL without a robots.txt (not http/https) is Crawlee's to fail; a refused address
    // is not crawled at all; anything else is not an answer, so the request waits.
    if (isRefusedAddressError(error)) return { kind: 'disallowed' };
    if (isInvalidUrlError(error)) return { kind: 'go' };
    return failed(error);
  }
  const verdict = client.verdict(url, state);
  if (verdict.reason === 'robots-txt-unreachable') {
    const ms = Math.max(state.entry.expiresAt - Date.now(), MIN_DEFER_MS);
    return { kind: 'defer', ms, why: 'robots-txt-unreachable' };
  }
  if (!verdict.allowed) return { kind: 'disallowed' };
  let turn;
  try {
    turn = await client.turn(url);
  } catch (error) {
    // The store keeping the host's turns failed: no turn is no permission (fail closed).
    return failed(error);
  }
  return turn.kind === 'go'
    ? { kind: 'go', spacingMs: turn.crawlDelayMs }
    : { kind: 'defer', ms: turn.waitMs, why: 'politeness', spacingMs: turn.crawlDelayMs };
}

function failed(error: unknown): Admission {
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'defer', ms: ERROR_DEFER_MS, why: 'store-error', error: message };
}

/**
 * Whether Crawlee may keep a URL with this verdict: false only where the file disallows it.
 * While the robots.txt is unreachable Crawlee must keep it (a `false` is dropped for good);
 * `admit` defers it when its turn comes.
 */
export function keeps(verdict: CheckResult): boolean {
  return verdict.allowed || verdict.reason === 'robots-txt-unreachable';
}

/** Whether Crawlee may keep `url` (enqueue it): false only for a URL the file disallows. */
export async function mayKeep(client: RobotsClient, url: string): Promise<boolean> {
  try {
    const state = await client.robotsFor(url);
    return keeps(client.verdict(url, state));
  } catch (error) {
    return !isRefusedAddressError(error);
  }
}
