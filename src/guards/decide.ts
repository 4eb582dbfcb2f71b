import type { RobotsClient } from '../fetch/index.ts';
import { DeferredError, DisallowedError } from './errors.ts';

/** What every guard takes. */
export interface GuardOptions {
  /** Names to match groups by instead of the client's (`['Googlebot-Image', 'Googlebot']`). */
  agent?: string | readonly string[];
  /**
   * The longest wait for the host's turn (Crawl-delay) the guard sleeps through before it
   * sends; a turn further off is a `DeferredError`. Default 30 s. 0: never wait.
   */
  maxWaitMs?: number;
  /** Keep the host's Crawl-delay turns and 429/503 pauses (default true). */
  politeness?: boolean;
}

/** A pause after a robots.txt that could not be read, when its entry gives none. */
const MIN_DEFER_MS = 1_000;

/**
 * Resolves when `url` may be requested now: its robots.txt allows it as it will be sent,
 * and (with politeness) the host's turn is taken. Throws `DisallowedError` or
 * `DeferredError`; an error of the store is a deferral, never a permission.
 */
export async function mayRequest(
  client: RobotsClient,
  url: string,
  options: GuardOptions = {},
): Promise<void> {
  const result = await client.check(
    url,
    options.agent === undefined ? {} : { agent: options.agent },
  );
  if (result.reason === 'robots-txt-unreachable') {
    throw new DeferredError(
      url,
      'robots-txt-unreachable',
      Math.max(result.expiresAt - Date.now(), MIN_DEFER_MS),
      `its robots.txt (${result.robotsUrl}) cannot be read now${result.error ? ` (${result.error})` : ''}`,
    );
  }
  if (!result.allowed) throw new DisallowedError(result);
  if (options.politeness === false) return;
  const maxWaitMs = options.maxWaitMs ?? 30_000;
  for (;;) {
    let turn;
    try {
      turn = await client.turn(url);
    } catch (error) {
      throw new DeferredError(
        url,
        'store-error',
        5_000,
        `the store keeping host turns failed (${String(error)})`,
      );
    }
    if (turn.kind === 'go') return;
    if (turn.waitMs > maxWaitMs) {
      throw new DeferredError(
        url,
        'politeness',
        turn.waitMs,
        "its host's turn (Crawl-delay, or a pause after 429/503) is not yet",
      );
    }
    await new Promise((done) => setTimeout(done, turn.waitMs));
  }
}

/** Page statuses that ask a crawler to slow down for the whole host. */
export const SLOW_DOWN = new Set([429, 503]);

/** Tells the client a host answered 429 or 503: every process on its store backs off. */
export function reportStatus(
  client: RobotsClient,
  url: string,
  status: number,
  retryAfter: string | undefined,
  options: GuardOptions,
): Promise<void> {
  if (options.politeness === false || !SLOW_DOWN.has(status)) return Promise.resolve();
  return client.backOff(url, retryAfter).then(
    () => undefined,
    () => undefined, // the pause is a courtesy: a store that fails it fails the next turn instead
  );
}
