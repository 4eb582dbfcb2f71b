import { admitRequest, type Admission, type RobotsClient } from '../fetch/index.ts';
import { SLOW_DOWN } from '../fetch/internal.ts';
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
  /**
   * Send the client's `userAgent` with every request the guard lets through (default true),
   * so that a site can tie what it receives to the group the crawler obeys. A `User-Agent`
   * the caller set on a request is kept (fetch and undici); a page's browser is given the
   * client's (its own says HeadlessChrome). `false` sends requests as the HTTP client would.
   */
  identify?: boolean;
}

/** The `User-Agent` a guard adds to what it lets through, unless the caller set one. */
export function identityOf(client: RobotsClient, options: GuardOptions): string | undefined {
  return options.identify === false ? undefined : client.userAgent;
}

/**
 * Resolves when `url` may be requested now: its robots.txt allows it as it will be sent
 * (`exact`: `url` is the request as it is sent, judged as it is; otherwise every form a
 * client may send it in, see `requestedForm`),
 * and (with politeness) the host's turn is taken, waiting for it up to `maxWaitMs`. Throws
 * `DisallowedError` or `DeferredError` (the decision is `admitRequest`'s, as the Crawlee
 * adapter's); an error of the store is a deferral, never a permission.
 */
export async function mayRequest(
  client: RobotsClient,
  url: string,
  options: GuardOptions = {},
  exact = false,
): Promise<void> {
  const maxWaitMs = options.maxWaitMs ?? 30_000;
  const asked = {
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    turn: options.politeness !== false,
    exact,
  };
  for (;;) {
    const admission = await admitRequest(client, url, asked);
    if (admission.kind === 'go') return;
    if (admission.kind === 'disallowed') throw new DisallowedError(admission.result);
    if (admission.why === 'politeness' && admission.ms <= maxWaitMs) {
      await new Promise((done) => setTimeout(done, admission.ms));
      continue;
    }
    throw new DeferredError(
      url,
      admission.why,
      admission.ms,
      deferredBecause(admission),
      admission.result?.edge,
    );
  }
}

/** Why a request waits, in words. */
function deferredBecause(admission: Extract<Admission, { kind: 'defer' }>): string {
  const { result, error } = admission;
  switch (admission.why) {
    case 'robots-txt-unreachable':
      return `its robots.txt (${result?.robotsUrl}) cannot be read now${result?.error ? ` (${result.error})` : ''}`;
    case 'politeness':
      return "its host's turn (Crawl-delay, or a pause after 429/503) is not yet";
    case 'crawl-delay-over-limit':
      return `its robots.txt asks for a Crawl-delay of ${(admission.spacingMs ?? 0) / 1000} s, over the client's politeness.maxCrawlDelayMs`;
    case 'store-error':
      return `the store keeping host turns failed (${error})`;
  }
}

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
