import type { RobotsClient } from '../fetch/index.ts';
import { identityOf, mayRequest, reportStatus, type GuardOptions } from './decide.ts';
import { DeferredError, DisallowedError } from './errors.ts';

/**
 * What of a Playwright route the guard uses. `Response` is the route's own response type
 * (Playwright's `APIResponse`), inferred from the page given: the guard hands back to
 * `fulfill` what `fetch` gave it, and a real `Page` type-checks without a cast.
 */
export interface RouteLike<Response> {
  /** Sends the request from the guard (redirects not followed: each hop is judged). */
  fetch(options: { maxRedirects: number; headers?: Record<string, string> }): Promise<
    Response & {
      /** The response's HTTP status. */
      status(): number;
      /** Its headers, names in lower case. */
      headers(): Record<string, string>;
    }
  >;
  /** Answers the page's request with a response the guard fetched. */
  fulfill(options: { response: Response }): Promise<void>;
  /** Fails the page's request (`blockedbyclient`): it is never sent. */
  abort(code: string): Promise<void>;
  /** Lets the request go on to the page's other routes, or to the network. */
  fallback(options?: { headers?: Record<string, string> }): Promise<void>;
}

/** What of a Playwright request the guard uses. */
export interface RequestLike {
  /** The URL as the browser will request it. */
  url(): string;
  /** Whether it navigates the page (a document), rather than loading a subresource. */
  isNavigationRequest(): boolean;
  /** Its headers. */
  headers(): Record<string, string>;
  /** The page's response to it (Playwright's `Request.response()`), once it has one. */
  response?(): Promise<unknown>;
}

/** What of a Playwright page the guard uses (`Page` from playwright or playwright-core). */
export interface GuardablePage<Response = unknown> {
  /** Routes requests whose URL matches through `handler`. */
  route(
    url: string,
    handler: (route: RouteLike<Response>, request: RequestLike) => Promise<void>,
  ): Promise<unknown>;
  /** Takes a route off. */
  unroute(
    url: string,
    handler?: (route: RouteLike<Response>, request: RequestLike) => Promise<void>,
  ): Promise<void>;
  /** Navigates the page. */
  goto(url: string, options?: object): Promise<unknown>;
  /** Waits until the page's document reaches `state` (Playwright's `Page.waitForLoadState`). */
  waitForLoadState?(
    state?: 'load' | 'domcontentloaded' | 'networkidle',
    options?: { timeout?: number },
  ): Promise<void>;
}

/** How `guardPage` keeps robots.txt: the guards' options, and which origins' subresources it checks. */
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
/** Playwright's words for a navigation another one interrupted, before the other's URL. */
const INTERRUPTED_BY = 'is interrupted by another navigation to "';

/** Redirects `goto` follows, as Chromium does. */
const MAX_HOPS = 20;

/**
 * What interrupted `goto` to `target`, from Playwright's message: an error page, `target`
 * itself (a navigation to it that an earlier `goto` began, committing late), or neither.
 */
function interruptedBy(message: string, target: string): 'error page' | 'target' | undefined {
  const at = message.indexOf(INTERRUPTED_BY);
  if (at < 0) return undefined;
  const by = message.slice(at + INTERRUPTED_BY.length);
  if (by.startsWith('chrome-error:')) return 'error page';
  return by.startsWith(`${withoutFragment(target)}"`) ? 'target' : undefined;
}

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
  const guard = new PageRoutes(page, client, options);
  const handler = (route: RouteLike<Response>, request: RequestLike) =>
    guard.handle(route, request);
  await page.route('**/*', handler);
  return {
    refused: guard.refused,
    goto: (url, gotoOptions) => guard.goto(url, gotoOptions),
    dispose: () => page.unroute('**/*', handler),
  };
}

/** One guarded page: its routing, the origins it crawls, and `goto`'s navigation hops. */
class PageRoutes<Response> {
  readonly refused: (DisallowedError | DeferredError)[] = [];
  #refusals = 0;
  readonly #crawled: Set<string>;
  readonly #agent: string | undefined;
  /** The URL `goto` is navigating to (as the browser asks for it), while it is. */
  #going: string | undefined;
  /** The next hop of `goto`'s navigation, when it was redirected. */
  #hopTo: string | undefined;
  /**
   * The response `goto`'s current hop got, kept for the browser asking again (see below),
   * and the last navigation request it answered (see `#gotoAfterHop`).
   */
  #answered: { url: string; response: Response; request: RequestLike } | undefined;

  constructor(
    readonly page: GuardablePage<Response>,
    readonly client: RobotsClient,
    readonly options: PageGuardOptions,
  ) {
    this.#crawled = new Set(options.origins?.map((o) => new URL(o).origin));
    this.#agent = identityOf(client, options);
  }

  /** Every request the page makes: judged when it is the crawl's, else let through. */
  async handle(route: RouteLike<Response>, request: RequestLike): Promise<void> {
    const { client, options } = this;
    const url = request.url();
    if (!url.startsWith('http:') && !url.startsWith('https:')) return route.fallback();
    const navigation = request.isNavigationRequest();
    // Asked again for a hop whose navigation an error page interrupted (#gotoAfterHop): it
    // was judged and sent once, so it is answered from there, not sent (or judged) twice.
    if (navigation && this.#answered?.url === url && this.#going === url) {
      this.#answered.request = request;
      return route.fulfill({ response: this.#answered.response });
    }
    const origin = new URL(url).origin;
    if (navigation) this.#crawled.add(origin);
    else if (!this.#crawled.has(origin)) return route.fallback();
    try {
      await mayRequest(client, url, navigation ? options : { ...options, politeness: false });
    } catch (error) {
      return this.#refuse(route, error);
    }
    // The crawled origins hear the client's User-Agent, not the browser's (HeadlessChrome).
    const identified =
      this.#agent === undefined ? undefined : { ...request.headers(), 'user-agent': this.#agent };
    if (!navigation) return route.fallback(identified ? { headers: identified } : undefined);
    return this.#navigate(route, request, url, identified);
  }

  /** A navigation: fetched without following redirects, each hop judged before it is sent. */
  async #navigate(
    route: RouteLike<Response>,
    request: RequestLike,
    url: string,
    identified: Record<string, string> | undefined,
  ): Promise<void> {
    const { client, options } = this;
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
        return this.#refuse(route, error);
      }
      // The browser follows a redirect outside the page's routing: no turn, its own
      // User-Agent, and a 429 or 503 there unseen. `goto`'s navigation is sent to the next
      // hop by `goto` instead, as a navigation routed like the first.
      if (this.#going === url) {
        this.#hopTo = next;
        return route.abort('aborted');
      }
    }
    if (this.#going === url) this.#answered = { url, response, request };
    return route.fulfill({ response });
  }

  /**
   * `page.goto` to a redirect's next hop. The hop before was aborted, and Chromium commits its
   * error page (chrome-error://chromewebdata/) when it gets to it: on a loaded machine, after
   * this navigation began, which it then interrupts; asked again then, a few times at most
   * (the hop was sent once, and is answered from there: `#answered`). A navigation to the hop
   * itself can interrupt too: one asked for before, committing late with the answer the guard
   * gave it. The page is then where `goto` was sent, so that navigation's response is the
   * answer; asking again would start one more navigation for the last one to interrupt, as
   * many times as the machine is slow.
   */
  async #gotoAfterHop(target: string, gotoOptions: Parameters<PageGuard['goto']>[1]) {
    for (let tries = 1; ; tries++) {
      try {
        return await this.page.goto(target, gotoOptions);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const by = interruptedBy(message, target);
        if (by === 'target') {
          const response = await this.#committedAnswer(gotoOptions);
          if (response) return response;
        }
        if (tries >= 3 || by === undefined) throw error;
      }
    }
  }

  /**
   * The response of the hop's navigation that committed, once the page has reached the load
   * state `goto` waits for; null where the page cannot say (then `goto` is asked again).
   */
  async #committedAnswer(gotoOptions: Parameters<PageGuard['goto']>[1]): Promise<unknown> {
    let response: unknown;
    try {
      response = await this.#answered?.request.response?.();
    } catch {
      // The page cannot say (closed, say): asking `goto` again will.
    }
    if (!response) return null;
    const { waitUntil, timeout } = (gotoOptions ?? {}) as {
      waitUntil?: 'load' | 'domcontentloaded' | 'networkidle' | 'commit';
      timeout?: number;
    };
    if (waitUntil !== 'commit') {
      await this.page.waitForLoadState?.(waitUntil ?? 'load', { timeout });
    }
    return response;
  }

  async #refuse(route: RouteLike<Response>, error: unknown): Promise<void> {
    if (error instanceof DisallowedError || error instanceof DeferredError) {
      this.#refusals++;
      this.refused.push(error);
      if (this.refused.length > KEPT) this.refused.shift();
    }
    await route.abort('blockedbyclient');
  }

  /** `PageGuard.goto`: each redirect hop of the navigation routed as the first. */
  async goto(url: string, gotoOptions?: Parameters<PageGuard['goto']>[1]) {
    await mayRequest(this.client, url, { ...this.options, politeness: false });
    let target = url;
    for (let hops = 0; ; hops++) {
      const before = this.#refusals;
      this.#going = withoutFragment(target);
      this.#hopTo = undefined;
      this.#answered = undefined;
      try {
        return hops === 0
          ? await this.page.goto(target, gotoOptions)
          : await this.#gotoAfterHop(target, gotoOptions);
      } catch (error) {
        // The route refused the navigation (its turn, or a redirect): say why, typed.
        const why = this.#refusals > before ? this.refused.at(-1) : undefined;
        if (why) throw why;
        if (this.#hopTo === undefined) throw error;
        if (hops === MAX_HOPS) throw new Error(`${url}: more than ${MAX_HOPS} redirects`);
        target = this.#hopTo;
      } finally {
        this.#going = undefined;
        this.#answered = undefined;
      }
    }
  }
}
