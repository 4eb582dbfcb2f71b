/**
 * The hooks the Crawlee adapter adds to a crawler's navigation: HTTP crawlers (got) space
 * each send by the host's Crawl-delay, carry the crawler's identity and check every redirect
 * hop as it will be requested; browser crawlers (Playwright) fetch the page's own navigation
 * without following redirects, so a target is checked before the browser goes there; and a
 * page answering 429 or 503 pauses the host that answered for the whole fleet.
 */
import type { Request } from 'crawlee';
import type { RobotsClient } from '../fetch/index.ts';
import { SLOW_DOWN } from '../fetch/internal.ts';
import { originOf } from './deferral.ts';

/** What the hooks ask of the adapter they serve. */
export interface NavigationHost {
  robotsClient(): Promise<RobotsClient>;
  /** Resolves when a page of the URL's host may go out (its Crawl-delay kept). */
  spaceSend(url: string): Promise<void>;
  /** Adds the client's signature and price offer to a request about to be sent. */
  identify(sending: GotRequestLike): Promise<void>;
  /** Throws `RedirectRefusedError` for a hop that may not be followed. */
  checkRedirect(request: Request, target: URL | string | undefined): Promise<void>;
  /** The host that answered is paused for `ms`. */
  pausedBy(origin: string, ms: number): void;
  log: { info(message: string): void; warning(message: string): void };
}

/** What of a Playwright page the navigation guard uses. */
export interface PageLike {
  mainFrame(): unknown;
  route(
    url: string,
    handler: (
      route: {
        fetch(options: { maxRedirects: number; headers?: Record<string, string> }): Promise<{
          status(): number;
          headers(): Record<string, string>;
        }>;
        fulfill(options: { response: unknown }): Promise<void>;
        abort(code: string): Promise<void>;
        fallback(): Promise<void>;
      },
      request: {
        isNavigationRequest(): boolean;
        frame(): unknown;
        url(): string;
        headers(): Record<string, string>;
      },
    ) => Promise<void>,
  ): Promise<void>;
}

/** What of a request got sends the hooks touch: its URL and headers. */
export interface GotRequestLike {
  url?: URL | string;
  headers?: Record<string, string | string[] | undefined>;
}

/** What of got's options the redirect check touches. */
export interface GotOptionsLike {
  hooks?: { beforeRedirect?: unknown[]; beforeRequest?: unknown[] };
  headers?: Record<string, string | string[] | undefined>;
}

export interface NavigationResponse {
  url?: string | (() => string);
  statusCode?: number;
  status?: () => number;
  headers?: Record<string, string | string[] | undefined> | (() => Record<string, string>);
}

/**
 * HTTP crawlers (got): pages carry the crawler's User-Agent (unless a hook of the caller's
 * chose one) and its signature; each send keeps the host's Crawl-delay; each redirect target
 * is checked against its own robots.txt, as it will be requested, before it is requested.
 */
export function gotHook(host: NavigationHost, userAgent: string | undefined) {
  return (context: { request: Request }, gotOptions: GotOptionsLike): void => {
    const headers = (gotOptions.headers ??= {});
    const own = Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent');
    if (userAgent !== undefined && !own) headers['user-agent'] = userAgent;
    const hooks = (gotOptions.hooks ??= {});
    // got runs these as the request goes out: the host's Crawl-delay is kept there.
    hooks.beforeRequest = [
      ...(hooks.beforeRequest ?? []),
      async (sending: GotRequestLike) => {
        await host.spaceSend(context.request.url);
        await host.identify(sending);
      },
    ];
    hooks.beforeRedirect = [
      ...(hooks.beforeRedirect ?? []),
      async (next: GotRequestLike) => {
        await host.checkRedirect(context.request, next.url);
        // Each hop carries its own signature (it covers the host it goes to).
        await host.identify(next);
      },
    ];
  };
}

/**
 * Browser crawlers (Playwright): the page's own navigation is fetched through a route
 * without following redirects, so a redirect's target is checked before the browser is sent
 * there. Playwright routes no redirect hop, so the browser follows an allowed target's own
 * redirects unchecked (docs/guide/crawlee.md, "what is covered").
 */
export function browserHook(host: NavigationHost, userAgent: string | undefined) {
  return async (context: { request: Request; page?: PageLike }): Promise<void> => {
    const page = context.page;
    if (!page || typeof page.route !== 'function') return;
    await page.route('**/*', async (route, routed) => {
      if (!routed.isNavigationRequest() || routed.frame() !== page.mainFrame()) {
        return route.fallback();
      }
      await host.spaceSend(context.request.url);
      let response;
      try {
        const client = await host.robotsClient();
        response = await route.fetch({
          maxRedirects: 0,
          headers: {
            ...routed.headers(),
            ...(userAgent !== undefined ? { 'user-agent': userAgent } : {}),
            // A signature that cannot be made fails the navigation: never sent unsigned.
            ...(await client.requestHeaders(routed.url())),
          },
        });
      } catch (error) {
        host.log.warning(`repkit: ${routed.url()} not loaded: ${(error as Error).message}`);
        return route.abort('failed');
      }
      const location = response.headers()['location'];
      if (response.status() >= 300 && response.status() < 400 && location) {
        try {
          await host.checkRedirect(context.request, new URL(location, routed.url()));
        } catch (error) {
          host.log.warning(`repkit: ${(error as Error).message}`);
          return route.abort('blockedbyclient');
        }
      }
      return route.fulfill({ response });
    });
  };
}

/**
 * Crawlers that navigate report 429/503 pages so the whole fleet backs off from the host
 * that answered (after redirects: not the host of the URL asked for).
 */
export function backOffHook(host: NavigationHost) {
  return async (context: { request: Request; response?: NavigationResponse }): Promise<void> => {
    const response = context.response;
    if (!response) return;
    const status = typeof response.status === 'function' ? response.status() : response.statusCode;
    if (status === undefined || !SLOW_DOWN.has(status)) return;
    const headers = typeof response.headers === 'function' ? response.headers() : response.headers;
    const retryAfter = headers?.['retry-after'];
    const answered =
      (typeof response.url === 'function' ? response.url() : response.url) ||
      context.request.loadedUrl ||
      context.request.url;
    const client = await host.robotsClient();
    const ms = await client.backOff(
      answered,
      Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
    );
    const origin = originOf(answered);
    if (origin !== undefined) host.pausedBy(origin, ms);
    host.log.info(`repkit: ${status} from ${answered}; host paused for ${ms} ms`);
  };
}
