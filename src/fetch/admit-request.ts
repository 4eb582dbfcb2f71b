import { clientSeam, type RobotsClient } from './client.ts';
import { isInvalidUrlError, isRefusedAddressError } from './errors.ts';
import { readLater, type CheckResult } from './answers/verdict.ts';

/**
 * What to do with a request a crawler is about to send: the one decision the Crawlee adapter
 * and the guards both make, so that both fail closed alike.
 */
export type Admission =
  | {
      /** Send it now (the host's turn is taken). */
      kind: 'go';
      /** The host's Crawl-delay, in ms (0 without one). */
      spacingMs: number;
    }
  | {
      /** Its robots.txt disallows it, as it will be requested: never sent. */
      kind: 'disallowed';
      /** The verdict, with the deciding line. */
      result: CheckResult;
    }
  | {
      /** Not now: ask again after `ms`. */
      kind: 'defer';
      /** How long to wait before asking again. */
      ms: number;
      /** Why it waits. */
      why: DeferReason;
      /** For the host's turns: the spacing between them (its Crawl-delay). */
      spacingMs?: number;
      /** The verdict, when the robots.txt could not be read. */
      result?: CheckResult;
      /** What failed, in words, when something did (the store, an unforeseen error). */
      error?: string;
    };

/**
 * Why a request waits: its robots.txt cannot be read, its host's turn, a Crawl-delay above
 * `politeness.maxCrawlDelayMs` (not honoured faster than asked), or the store failed.
 */
export type DeferReason =
  'robots-txt-unreachable' | 'politeness' | 'crawl-delay-over-limit' | 'store-error';

/** Shortest deferral, so that a robots.txt failing fast is not asked again in a tight loop. */
const MIN_DEFER_MS = 1_000;
/** How long a request waits when the store (or anything unforeseen) fails: never allowed. */
const ERROR_DEFER_MS = 5_000;

/**
 * Whether `url` may be requested now: its robots.txt verdict (fetched or cached) for `agent`
 * (default: the client's names), then, with `turn` (default true), the host's turn
 * (Crawl-delay, and pauses after 429/503, shared through the client's store). While the
 * robots.txt is unreachable the request waits until the client tries the file again; a store
 * that fails is a wait too, never a permission. The robots.txt state is read once: its
 * verdict and the host's turn both come from it.
 *
 * @example
 * const admission = await admitRequest(client, 'https://example.com/page');
 * if (admission.kind === 'go') send(); // else skip ('disallowed') or ask again after admission.ms
 * @throws {InvalidUrlError} for a URL that has no robots.txt (another scheme, no host).
 * @throws {RefusedAddressError} for a host the client's `allowAddress` refuses.
 */
export async function admitRequest(
  client: RobotsClient,
  url: string,
  options: {
    agent?: string | readonly string[];
    turn?: boolean;
    /**
     * `url` is the request exactly as it is sent (a guard that sees the request line): judged
     * as it is, and as the WHATWG parser would write it where that differs. Default false.
     */
    exact?: boolean;
  } = {},
): Promise<Admission> {
  let state;
  try {
    state = await client.robotsFor(url);
  } catch (error) {
    if (isInvalidUrlError(error) || isRefusedAddressError(error)) throw error;
    return storeFailed(error);
  }
  const seam = clientSeam(client);
  const { agents, notes } = seam.names(options.agent);
  const result = seam.verdict(url, state, {
    agents,
    agentNotes: notes,
    ...(options.exact ? { exact: true } : {}),
  });
  // A wall in the robots.txt's place waits as an unreachable file does: never a permission.
  if (readLater(result)) {
    const ms = Math.max(state.entry.expiresAt - Date.now(), MIN_DEFER_MS);
    return { kind: 'defer', ms, why: 'robots-txt-unreachable', result };
  }
  if (!result.allowed) return { kind: 'disallowed', result };
  if (options.turn === false) return { kind: 'go', spacingMs: 0 };
  let turn;
  try {
    turn = await seam.turnFor(state);
  } catch (error) {
    // The store keeping the host's turns failed: no turn is no permission (fail closed).
    return storeFailed(error);
  }
  switch (turn.kind) {
    case 'go':
      return { kind: 'go', spacingMs: turn.crawlDelayMs };
    case 'wait':
      return { kind: 'defer', ms: turn.waitMs, why: 'politeness', spacingMs: turn.crawlDelayMs };
    case 'over-limit':
      return {
        kind: 'defer',
        ms: turn.waitMs,
        why: 'crawl-delay-over-limit',
        spacingMs: turn.askedMs,
      };
  }
}

/** A wait after a failure that gave no answer. */
export function storeFailed(error: unknown): Admission {
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'defer', ms: ERROR_DEFER_MS, why: 'store-error', error: message };
}
