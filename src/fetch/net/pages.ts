import type { FetchOutcome, HttpOptions, RobotsHttp } from './robots-http.ts';
import { Limiter } from './limiter.ts';

/** The response headers page rules are read from. */
const PAGE_RULE_HEADERS = [
  'x-robots-tag',
  'robots-tag',
  'content-usage',
  'tdm-reservation',
  'tdm-policy',
  'crawler-charged',
] as const;

/** Page fetches in flight at once (two per origin), and how many may wait for a place. */
const PAGES_AT_ONCE = 16;
const PAGES_WAITING = 1_000;

/** A page fetch refused because too many wait: an error outcome, never a throw. */
function refusedPage(url: string): FetchOutcome {
  return {
    outcome: 'error',
    status: 0,
    headers: {},
    chain: [url],
    error: `more than ${PAGES_WAITING} page fetches are waiting; not fetched`,
  };
}

/** A page is HTML: that is no edge for a page (a wall or a payment demand is). */
function withoutPageHtml(outcome: FetchOutcome): FetchOutcome {
  if (outcome.edge?.kind !== 'html') return outcome;
  const { edge: _edge, ...rest } = outcome;
  return rest;
}

/**
 * Pages fetched for their rules (see `RobotsClient.fetchPage`): one fetch for callers asking
 * the same at once; at most 16 in flight, two per origin, 1,000 waiting (the rest answered
 * with an error outcome at once), so bodies in memory stay under 16 × `maxBytes`.
 */
export class PageFetches {
  readonly #http: RobotsHttp;
  readonly #request: Pick<
    HttpOptions,
    'userAgent' | 'maxRedirects' | 'timeoutMs' | 'requestHeaders'
  >;
  readonly #inflight = new Map<string, Promise<FetchOutcome>>();
  readonly #slots = new Limiter(PAGES_AT_ONCE, 2, PAGES_WAITING);

  constructor(
    http: RobotsHttp,
    request: Pick<HttpOptions, 'userAgent' | 'maxRedirects' | 'timeoutMs' | 'requestHeaders'>,
  ) {
    this.#http = http;
    this.#request = request;
  }

  /**
   * `url`'s page, up to `maxBytes` of its body; `beforeHop` decides each redirect. `key`
   * names what besides the URL and limit makes two asks different (the crawler asking).
   */
  fetch(
    url: string,
    maxBytes: number,
    key: string,
    beforeHop: (url: string) => Promise<string | undefined>,
  ): Promise<FetchOutcome> {
    const asked = `${maxBytes} ${key} ${url}`;
    const joined = this.#inflight.get(asked);
    if (joined) return joined;
    let origin = '';
    try {
      origin = new URL(url).origin;
    } catch {
      // not a URL: the fetch says so
    }
    const pending = this.#slots
      .run(
        origin,
        () =>
          this.#http
            .fetch(url, {
              ...this.#request,
              maxBytes,
              accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
              keepHeaders: PAGE_RULE_HEADERS,
              beforeHop,
            })
            .then(withoutPageHtml),
        () => refusedPage(url),
      )
      .finally(() => this.#inflight.delete(asked));
    this.#inflight.set(asked, pending);
    return pending;
  }
}
