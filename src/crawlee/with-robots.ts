import type { BasicCrawler, Request, RobotsTxtFile } from 'crawlee';
import { ProxyAgent, type Dispatcher } from 'undici';
import type { CacheStore } from '../cache/index.ts';
import { RepkitError } from '../core/index.ts';
import { InvalidOptionError, RobotsClient, type RobotsClientOptions } from '../fetch/index.ts';
import { SLOW_DOWN } from '../fetch/internal.ts';
import { admit, mayKeep } from './admission.ts';
import { Deferrals, originOf } from './deferral.ts';
import { SendSpacing } from './send-spacing.ts';
import { internalsOf, type CrawlerInternals } from './internals.ts';
import { WaitingLog } from './waiting-log.ts';
import { RepkitRobotsTxtFile } from './robots-file.ts';

export interface RepkitRobotsOptions {
  /**
   * Sent as the User-Agent of robots.txt requests; its product token is the crawler's name
   * for matching (`ExampleBot/1.0` → `ExampleBot`).
   */
  userAgent: string;
  /** Names to match groups by instead, as ordered fallbacks (`['Googlebot-Image', 'Googlebot']`). */
  agent?: string | readonly string[];
  /** Where robots.txt results and per-host turns are kept: a `RedisStore` shares them with a fleet. */
  store?: CacheStore;
  /** A client of your own (its options win; it is not closed by the crawler). */
  client?: RobotsClient;
  /**
   * The dispatcher robots.txt requests go through. Default: the crawler's
   * `proxyConfiguration` when it has one (a `ProxyAgent` on its first proxy URL), else direct.
   */
  dispatcher?: Dispatcher;
  /**
   * Pages go out with `userAgent` too (default true): HTTP crawlers send it as their
   * User-Agent (unless a hook of yours set one), and a browser crawler's navigations carry it,
   * so that a site can tie the pages to the robots.txt group they obey. With false, pages
   * keep Crawlee's browser-like User-Agent, and a warning says so at start.
   */
  identifyPages?: boolean;
  /**
   * How many deferred requests the crawler holds at once (each about a kilobyte of memory).
   * Past it, nothing new is taken from the queue until a held request's turn comes.
   * @default 100000
   */
  maxHeld?: number;
  /** Any other `RobotsClient` option (cache lifetimes, timeouts, politeness bounds...). */
  clientOptions?: Omit<RobotsClientOptions, 'userAgent' | 'agent' | 'store' | 'dispatcher'>;
}

/** What `withRepkitRobots` adds to a crawler. */
export interface RepkitRobotsCrawler {
  /** The robots.txt client the crawler's decisions come from (made at first use). */
  robotsClient(): Promise<RobotsClient>;
}

// TypeScript's mixin rule: the base constructor takes `...args: any[]`; the crawler's context
// type is the caller's.
/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyCrawlerClass = abstract new (...args: any[]) => BasicCrawler<any>;

/** What of a Playwright page the navigation guard uses. */
interface PageLike {
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
interface GotRequestLike {
  url?: URL | string;
  headers?: Record<string, string | string[] | undefined>;
}

/** What of got's options the redirect check touches. */
interface GotOptionsLike {
  hooks?: { beforeRedirect?: unknown[]; beforeRequest?: unknown[] };
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * A crawler's request redirected to a URL that is not requested: its own robots.txt
 * disallows it, or cannot be read now (then the request is retried later).
 */
export class RedirectRefusedError extends RepkitError {
  constructor(
    /** The redirect target, as it would have been requested. */
    readonly url: string,
    reason: string,
  ) {
    super('redirect-refused', `redirect to ${url} not followed: ${reason}`);
  }
}

export function isRedirectRefusedError(error: unknown): error is RedirectRefusedError {
  return error instanceof RedirectRefusedError;
}

interface NavigationResponse {
  url?: string | (() => string);
  statusCode?: number;
  status?: () => number;
  headers?: Record<string, string | string[] | undefined> | (() => Record<string, string>);
}

/**
 * A subclass of a Crawlee crawler class (BasicCrawler, HttpCrawler, CheerioCrawler,
 * PlaywrightCrawler...) whose robots.txt decisions come from repkit with Google's semantics:
 *
 * ```ts
 * const Crawler = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0' });
 * await new Crawler({ respectRobotsTxtFile: true, requestHandler }).run(['https://example.com/']);
 * ```
 *
 * - A disallowed URL is never requested (Crawlee skips it, `onSkippedRequest` says so).
 * - While a robots.txt is unreachable (5xx, 429, timeout) requests for that origin are put back
 *   in the queue until the client tries the file again, then crawled if allowed.
 * - Each host's turns are spaced by its Crawl-delay, and a page answering 429 or 503 pauses the
 *   host for its `Retry-After`, for every process on the store.
 * - `getRobotsTxtFileForUrl` gives an object with the methods of Crawlee's `RobotsTxtFile`
 *   (`isAllowed`, `getSitemaps`, `parseSitemaps`, `parseUrlsFromSitemaps`).
 *
 * Robots.txt is respected unless the crawler is given `respectRobotsTxtFile: false`.
 */
export function withRepkitRobots<C extends AnyCrawlerClass>(
  Crawler: C,
  options: RepkitRobotsOptions,
): C & (abstract new (...args: any[]) => RepkitRobotsCrawler) {
  if (typeof options?.userAgent !== 'string' || options.userAgent.trim() === '') {
    throw new InvalidOptionError('userAgent', "withRepkitRobots needs the crawler's User-Agent");
  }

  abstract class RepkitCrawler extends Crawler implements RepkitRobotsCrawler {
    #client: Promise<RobotsClient> | undefined;
    #ownsClient = !options.client;
    /** A ProxyAgent made from the crawler's proxy configuration, closed with the client. */
    #ownDispatcher: Dispatcher | undefined;
    readonly #deferrals = new Deferrals(
      (message) => this.log.warning(`repkit: ${message}`),
      options.maxHeld,
    );
    readonly #waitingLog = new WaitingLog(this.log);
    /** Per host, the Crawl-delay its last admission gave, kept again at send. */
    readonly #sends = new SendSpacing();
    readonly #enabled: boolean;
    /** What of Crawlee's internals the adapter uses (see internals.ts); set when enabled. */
    #internals: CrawlerInternals | undefined;

    constructor(...args: any[]) {
      /* eslint-enable @typescript-eslint/no-explicit-any */
      super(...args);
      this.#enabled =
        (args[0] as { respectRobotsTxtFile?: unknown })?.respectRobotsTxtFile !== false;
      if (!this.#enabled) return;
      const internals = internalsOf(this);
      this.#internals = internals;
      internals.answerRobotsChecks(async (url) => mayKeep(await this.robotsClient(), url));
      internals.interceptDequeue((dequeue) => this.#next(dequeue));
      // Held requests keep the crawl going, and one whose turn has come is a task ready.
      internals.interceptPool({
        ready: async (crawlee) =>
          this.#deferrals.hasDue() || (!this.#deferrals.full && (await crawlee())),
        finished: async (crawlee) => this.#deferrals.size === 0 && (await crawlee()),
      });
      internals.interceptRobotsFile((url) => this.#robotsFile(url));
      // HTTP crawlers (got): each redirect target is checked against its own robots.txt,
      // as it will be requested, before it is requested.
      const before = internals.preNavigationHooks;
      const identify = options.identifyPages !== false;
      if (!identify) {
        this.log.warning(
          `repkit: pages go out with Crawlee's User-Agent, robots.txt with ${options.userAgent}: sites cannot tie the crawl to the group it obeys (identifyPages: false)`,
        );
      }
      if (before && internals.sender === 'got') {
        before.push((context: { request: Request }, gotOptions: GotOptionsLike) => {
          // One identity: the pages carry the User-Agent robots.txt was fetched with, unless
          // a hook of the caller's chose one (theirs stays).
          const headers = (gotOptions.headers ??= {});
          const own = Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent');
          if (identify && !own) headers['user-agent'] = options.userAgent;
          const hooks = (gotOptions.hooks ??= {});
          // got runs these as the request goes out: the host's Crawl-delay is kept there.
          hooks.beforeRequest = [
            ...(hooks.beforeRequest ?? []),
            async (sending: GotRequestLike) => {
              await this.#spaceSend(context.request.url);
              await this.#identify(sending);
            },
          ];
          hooks.beforeRedirect = [
            ...(hooks.beforeRedirect ?? []),
            async (next: GotRequestLike) => {
              await this.#checkRedirect(context.request, next.url);
              // Each hop carries its own signature (it covers the host it goes to).
              await this.#identify(next);
            },
          ];
        });
      }
      // Browser crawlers (Playwright): the page's own navigation is fetched through a route
      // without following redirects, so a redirect's target is checked before the browser
      // is sent there. Playwright routes no redirect hop, so the browser follows an allowed
      // target's own redirects unchecked (README, "What is covered").
      if (before && internals.sender === 'browser') {
        before.push(async (context: { request: Request; page?: PageLike }) => {
          const page = context.page;
          if (!page || typeof page.route !== 'function') return;
          await page.route('**/*', async (route, routed) => {
            if (!routed.isNavigationRequest() || routed.frame() !== page.mainFrame()) {
              return route.fallback();
            }
            await this.#spaceSend(context.request.url);
            let response;
            try {
              const client = await this.robotsClient();
              response = await route.fetch({
                maxRedirects: 0,
                headers: {
                  ...routed.headers(),
                  ...(identify ? { 'user-agent': options.userAgent } : {}),
                  // A signature that cannot be made fails the navigation: never sent unsigned.
                  ...(await client.requestHeaders(routed.url())),
                },
              });
            } catch (error) {
              this.log.warning(`repkit: ${routed.url()} not loaded: ${(error as Error).message}`);
              return route.abort('failed');
            }
            const location = response.headers()['location'];
            if (response.status() >= 300 && response.status() < 400 && location) {
              try {
                await this.#checkRedirect(context.request, new URL(location, routed.url()));
              } catch (error) {
                this.log.warning(`repkit: ${(error as Error).message}`);
                return route.abort('blockedbyclient');
              }
            }
            return route.fulfill({ response });
          });
        });
      }
      // Crawlers that navigate (HttpCrawler, CheerioCrawler, PlaywrightCrawler...) report
      // 429/503 pages so the whole fleet backs off from the host that answered (after
      // redirects: not the host of the URL asked for).
      const hooks = internals.postNavigationHooks;
      if (hooks) {
        hooks.push(async (context: { request: Request; response?: NavigationResponse }) => {
          const response = context.response;
          if (!response) return;
          const status =
            typeof response.status === 'function' ? response.status() : response.statusCode;
          if (status === undefined || !SLOW_DOWN.has(status)) return;
          const headers =
            typeof response.headers === 'function' ? response.headers() : response.headers;
          const retryAfter = headers?.['retry-after'];
          const answered =
            (typeof response.url === 'function' ? response.url() : response.url) ||
            context.request.loadedUrl ||
            context.request.url;
          const client = await this.robotsClient();
          const ms = await client.backOff(
            answered,
            Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          );
          const origin = originOf(answered);
          if (origin !== undefined) this.#waitingLog.pausedBy(origin, ms);
          this.log.info(`repkit: ${status} from ${answered}; host paused for ${ms} ms`);
        });
      }
    }

    robotsClient(): Promise<RobotsClient> {
      this.#client ??= this.#makeClient();
      return this.#client;
    }

    /** The crawler's robots.txt for `url`: repkit's, with Crawlee's `RobotsTxtFile` methods. */
    async #robotsFile(url: string): Promise<RobotsTxtFile | undefined> {
      try {
        const client = await this.robotsClient();
        const state = await client.robotsFor(url);
        // Sitemaps it lists are read through the crawler's proxy, as robots.txt was.
        const proxyUrl = await this.#internals?.proxyConfiguration?.newUrl();
        return new RepkitRobotsTxtFile(client, state, proxyUrl) as unknown as RobotsTxtFile;
      } catch (error) {
        this.log.warning(`repkit: no robots.txt for ${url}: ${String(error)}`);
        return undefined;
      }
    }

    /**
     * The next request to crawl: a held one whose turn has come, else one from the queue
     * (unless `maxHeld` are held). A request that may not go yet is held (see Deferrals).
     */
    async #next(dequeue: () => Promise<Request | null>): Promise<Request | null> {
      const due = this.#deferrals.takeDue();
      if (due) return this.#admit(due, true);
      if (this.#deferrals.full) return null;
      const request = await dequeue();
      return request ? this.#admit(request, false) : request;
    }

    /** A request about to be crawled: crawled now, or held until it may go. */
    async #admit(request: Request, held: boolean): Promise<Request | null> {
      const admission = await admit(await this.robotsClient(), request.url);
      if (admission.kind !== 'defer') {
        const origin = originOf(request.url);
        if (admission.kind === 'go' && origin !== undefined) {
          this.#sends.admitted(origin, admission.spacingMs);
        }
        this.#waitingLog.note(request.url, admission);
        return request;
      }
      const ms = held
        ? this.#deferrals.holdAgain(request, admission.ms, admission.spacingMs)
        : await this.#deferrals.hold(
            this.#internals?.requestManager,
            request,
            admission.ms,
            admission.spacingMs,
          );
      this.#waitingLog.note(request.url, admission, ms);
      return null;
    }

    override async teardown(): Promise<void> {
      // Stopped with requests still held: back in the queue, for a resumed crawl.
      await this.#deferrals.release(this.#internals?.requestManager);
      await super.teardown();
      if (this.#ownsClient && this.#client) {
        const client = this.#client;
        this.#client = undefined;
        await (await client).close();
        await this.#ownDispatcher?.close();
        this.#ownDispatcher = undefined;
      }
    }

    /**
     * Resolves when a page of `url`'s host may go out: a Crawl-delay after this process's
     * last one there (see `SendSpacing`), whenever Crawlee sends what it admitted.
     */
    async #spaceSend(url: string): Promise<void> {
      const origin = originOf(url);
      if (origin !== undefined) await this.#sends.send(origin);
    }

    /**
     * A redirect about to be followed: its target, as it will be requested, must be allowed
     * by its own robots.txt. A disallowed target fails the request without retries (never
     * requested); one whose robots.txt cannot be read now fails it for a later retry.
     */
    /**
     * Adds the client's Web Bot Auth signature and price offer (`requestHeaders`) to a
     * request got is about to send, made for its URL.
     */
    async #identify(sending: GotRequestLike): Promise<void> {
      if (sending.url === undefined) return;
      const added = await (await this.robotsClient()).requestHeaders(String(sending.url));
      if (Object.keys(added).length > 0) Object.assign((sending.headers ??= {}), added);
    }

    async #checkRedirect(request: Request, target: URL | string | undefined): Promise<void> {
      if (target === undefined) return;
      const url = String(target);
      const refused = await (await this.robotsClient()).refuseRedirect(url);
      if (!refused) return;
      if (!refused.retryLater) {
        request.noRetry = true;
        this.log.info(
          `repkit: ${request.url} redirects to ${url}; not followed: ${refused.reason}`,
        );
      }
      throw new RedirectRefusedError(url, refused.reason);
    }

    async #makeClient(): Promise<RobotsClient> {
      if (options.client) return options.client;
      let dispatcher = options.dispatcher;
      const proxies = internalsOf(this).proxyConfiguration;
      if (!dispatcher && proxies) {
        const proxyUrl = await proxies.newUrl();
        if (proxyUrl) dispatcher = this.#ownDispatcher = new ProxyAgent(proxyUrl);
      }
      return new RobotsClient({
        ...options.clientOptions,
        userAgent: options.userAgent,
        ...(options.agent !== undefined ? { agent: options.agent } : {}),
        ...(options.store ? { store: options.store } : {}),
        ...(dispatcher ? { dispatcher } : {}),
      });
    }
  }
  return RepkitCrawler;
}
