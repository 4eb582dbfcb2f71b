import type { RobotsClient } from '../fetch/index.ts';
import { identityOf, mayRequest, reportStatus, type GuardOptions } from './decide.ts';
import { DeferredError, DisallowedError } from './errors.ts';

/**
 * What of a Playwright route the guard uses. `Response` is the route's own response type
 * (Playwright's `APIResponse`), inferred from the page given: the guard hands back to
 * `fulfill` what `fetch` gave it, and a real `Page` type-checks without a cast.
 */
interface RouteLike<Response> {
  fetch(options: { maxRedirects: number; headers?: Record<string, string> }): Promise<
    Response & {
      status(): number;
      headers(): Record<string, string>;
    }
  >;
  fulfill(options: { response: Response }): Promise<void>;
  abort(code: string): Promise<void>;
  fallback(options?: { headers?: Record<string, string> }): Promise<void>;
}

/** What of a Playwright request the guard uses. */
interface RequestLike {
  url(): string;
  isNavigationRequest(): boolean;
  headers(): Record<string, string>;
}

/** What of a Playwright page the guard uses (`Page` from playwright or playwright-core). */
export interface GuardablePage<Response = unknown> {
  route(
    url: string,
    handler: (route: RouteLike<Response>, request: RequestLike) => Promise<void>,
  ): Promise<unknown>;
  unroute(
    url: string,
    handler?: (route: RouteLike<Response>, request: RequestLike) => Promise<void>,
  ): Promise<void>;
  goto(url: string, options?: object): Promise<unknown>;
}

export interface PageGuardOptions extends GuardOptions {
  /**
   * Origins whose subresource requests are checked, besides those the page navigates to
   * (`https://example.com`). Subresources of other origins go as the page asks.
   */
  origins?: readonly string[];
}

/** What `guardPage` gives: a checked `goto`, and what the route refused. */
export interface PageGuard {
  /**
   * `page.goto` for a URL robots.txt allows: a `DisallowedError` or `DeferredError` before
   * the browser is sent anywhere, and the same for a redirect of the navigation the guard
   * refused.
   */
  goto(url: string, options?: object): Promise<unknown>;
  /** The requests the guard refused, oldest first (the last 100). */
  readonly refused: readonly (DisallowedError | DeferredError)[];
  /** Takes the guard's route off the page. */
  dispose(): Promise<void>;
}

/** Refusals kept for `refused`. */
const KEPT = 100;
/** Redirects `goto` follows, as Chromium does. */
const MAX_HOPS = 20;

/** `url` as the browser asks for it: no fragment. */
function withoutFragment(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

/**
 * Keeps robots.txt for a Playwright page: every navigation, its redirect hops, and every
 * subresource request of the origins it crawls is judged as it will be sent against its own
 * origin's robots.txt, and refused (aborted, `blockedbyclient`) when the file disallows it or
 * cannot be read now:
 *
 * ```ts
 * const guard = await guardPage(page, client);
 * await guard.goto('https://example.com/'); // DisallowedError if robots.txt says no
 * ```
 *
 * Navigations are fetched without following redirects, so that a redirect's target is
 * judged before the browser is sent there; `goto` then navigates to each hop itself, so
 * that every hop is routed as the first (its turn, the client's User-Agent, a 429 or 503
 * seen), and its answer is the last hop's. The first redirect of a navigation `goto` did
 * not start (a click) is judged, and the browser follows the rest. Navigations take the
 * host's Crawl-delay turn (a page's own images, styles and scripts do not: one page is one
 * visit). A 429 or 503 navigation pauses its host for every process on the client's store.
 *
 * Chromium's own `/favicon.ico` request, made for a page that names no icon, is the browser's
 * rather than the page's: Playwright aborts it where its routing sees it, but it can reach the
 * site outside the page's routing, and no guard on the page can stop it then.
 */
export async function guardPage<Response>(
  page: GuardablePage<Response>,
  client: RobotsClient,
  options: PageGuardOptions = {},
): Promise<PageGuard> {
  const crawled = new Set(options.origins?.map((o) => new URL(o).origin));
  const agent = identityOf(client, options);
  const refused: (DisallowedError | DeferredError)[] = [];
  let refusals = 0;
  const refuse = async (route: RouteLike<Response>, error: unknown) => {
    if (error instanceof DisallowedError || error instanceof DeferredError) {
      refusals++;
      refused.push(error);
      if (refused.length > KEPT) refused.shift();
    }
    await route.abort('blockedbyclient');
  };
  const handler = async (route: RouteLike<Response>, request: RequestLike) => {
    const url = request.url();
    if (!url.startsWith('http:') && !url.startsWith('https:')) return route.fallback();
    const navigation = request.isNavigationRequest();
    const origin = new URL(url).origin;
    if (navigation) crawled.add(origin);
    else if (!crawled.has(origin)) return route.fallback();
    try {
      await mayRequest(client, url, navigation ? options : { ...options, politeness: false });
    } catch (error) {
      return refuse(route, error);
    }
    // The crawled origins hear the client's User-Agent, not the browser's (HeadlessChrome).
    const identified =
      agent === undefined ? undefined : { ...request.headers(), 'user-agent': agent };
    if (!navigation) return route.fallback(identified ? { headers: identified } : undefined);
    let response;
    try {
      // The navigation carries the client's signature and price offer, made for its URL.
      const added = await client.requestHeaders(url);
      response = await route.fetch(
        Object.keys(added).length > 0 || identified
          ? { maxRedirects: 0, headers: { ...request.headers(), ...identified, ...added } }
          : { maxRedirects: 0 },
      );
    } catch {
      return route.abort('failed');
    }
    const headers = response.headers();
    await reportStatus(client, url, response.status(), headers['retry-after'], options);
    const location = headers['location'];
    if (response.status() >= 300 && response.status() < 400 && location) {
      let next: string;
      try {
        next = new URL(location, url).href;
        // The hop's own robots.txt; its turn is taken when it is asked for.
        await mayRequest(client, next, { ...options, politeness: false });
      } catch (error) {
        return refuse(route, error);
      }
      // The browser follows a redirect outside the page's routing: no turn, its own
      // User-Agent, and a 429 or 503 there unseen. `goto`'s navigation is sent to the next
      // hop by `goto` instead, as a navigation routed like the first.
      if (going === url) {
        hopTo = next;
        return route.abort('aborted');
      }
    }
    return route.fulfill({ response });
  };
  /** The URL `goto` is navigating to (as the browser asks for it), while it is. */
  let going: string | undefined;
  /** The next hop of `goto`'s navigation, when it was redirected. */
  let hopTo: string | undefined;
  await page.route('**/*', handler);
  return {
    refused,
    async goto(url, gotoOptions) {
      await mayRequest(client, url, { ...options, politeness: false });
      let target = url;
      for (let hops = 0; ; hops++) {
        const before = refusals;
        going = withoutFragment(target);
        hopTo = undefined;
        try {
          return await page.goto(target, gotoOptions);
        } catch (error) {
          // The route refused the navigation (its turn, or a redirect): say why, typed.
          const why = refusals > before ? refused.at(-1) : undefined;
          if (why) throw why;
          if (hopTo === undefined) throw error;
          if (hops === MAX_HOPS) throw new Error(`${url}: more than ${MAX_HOPS} redirects`);
          target = hopTo;
        } finally {
          going = undefined;
        }
      }
    },
    dispose: () => page.unroute('**/*', handler),
  };
}
