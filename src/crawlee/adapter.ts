/**
 * The Crawlee adapter's work, outside the mixin so that it can be read and tested alone: the
 * robots.txt client, requests admitted or held until they may go, the crawler's robots.txt
 * file, and the navigation hooks (see navigation.ts). `withRepkitRobots` makes one per
 * crawler and attaches it to the crawler's internals.
 */
import type { BasicCrawler, Request, RobotsTxtFile } from 'crawlee';
import { ProxyAgent, type Dispatcher } from 'undici';
import type { CacheStore } from '../cache/index.ts';
import { RobotsClient, type RobotsClientOptions } from '../fetch/index.ts';
import { admit, mayKeep } from './admission.ts';
import { Deferrals, originOf } from './deferral.ts';
import { RedirectRefusedError } from './errors.ts';
import { internalsOf, type CrawlerInternals } from './internals.ts';
import {
  backOffHook,
  browserHook,
  gotHook,
  type GotRequestLike,
  type NavigationHost,
} from './navigation.ts';
import { RepkitRobotsTxtFile } from './robots-file.ts';
import { SendSpacing } from './send-spacing.ts';
import { WaitingLog } from './waiting-log.ts';

/** How `withRepkitRobots` reads robots.txt for a crawler. Only `userAgent` is required. */
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

/** One crawler's robots.txt layer (see the module comment). */
export class RobotsAdapter implements NavigationHost {
  readonly log: BasicCrawler['log'];
  readonly #crawler: BasicCrawler;
  readonly #options: RepkitRobotsOptions;
  #client: Promise<RobotsClient> | undefined;
  /** A ProxyAgent made from the crawler's proxy configuration, closed with the client. */
  #ownDispatcher: Dispatcher | undefined;
  readonly #deferrals: Deferrals;
  readonly #waitingLog: WaitingLog;
  /** Per host, the Crawl-delay its last admission gave, kept again at send. */
  readonly #sends = new SendSpacing();
  /** What of Crawlee's internals the adapter uses (see internals.ts); set once attached. */
  #internals: CrawlerInternals | undefined;

  constructor(crawler: BasicCrawler, options: RepkitRobotsOptions) {
    this.#crawler = crawler;
    this.#options = options;
    this.log = crawler.log;
    this.#deferrals = new Deferrals((m) => this.log.warning(`repkit: ${m}`), options.maxHeld);
    this.#waitingLog = new WaitingLog(this.log);
  }

  /** Takes the crawler's robots.txt checks, its dequeues and its navigation hooks. */
  attach(): void {
    const internals = internalsOf(this.#crawler);
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
    const identify = this.#options.identifyPages !== false;
    if (!identify) {
      this.log.warning(
        `repkit: pages go out with Crawlee's User-Agent, robots.txt with ${this.#options.userAgent}: sites cannot tie the crawl to the group it obeys (identifyPages: false)`,
      );
    }
    const userAgent = identify ? this.#options.userAgent : undefined;
    const before = internals.preNavigationHooks;
    if (before && internals.sender === 'got') before.push(gotHook(this, userAgent));
    if (before && internals.sender === 'browser') before.push(browserHook(this, userAgent));
    internals.postNavigationHooks?.push(backOffHook(this));
  }

  robotsClient(): Promise<RobotsClient> {
    this.#client ??= this.#makeClient();
    return this.#client;
  }

  /** Stopped with requests still held: back in the queue, for a resumed crawl. */
  async release(): Promise<void> {
    await this.#deferrals.release(this.#internals?.requestManager);
  }

  /** Closes the client the adapter made (a client given is the caller's to close). */
  async close(): Promise<void> {
    if (this.#options.client || !this.#client) return;
    const client = this.#client;
    this.#client = undefined;
    await (await client).close();
    await this.#ownDispatcher?.close();
    this.#ownDispatcher = undefined;
  }

  /**
   * Resolves when a page of `url`'s host may go out: a Crawl-delay after this process's
   * last one there (see `SendSpacing`), whenever Crawlee sends what it admitted.
   */
  async spaceSend(url: string): Promise<void> {
    const origin = originOf(url);
    if (origin !== undefined) await this.#sends.send(origin);
  }

  /**
   * Adds the client's Web Bot Auth signature and price offer (`requestHeaders`) to a
   * request got is about to send, made for its URL.
   */
  async identify(sending: GotRequestLike): Promise<void> {
    if (sending.url === undefined) return;
    const added = await (await this.robotsClient()).requestHeaders(String(sending.url));
    if (Object.keys(added).length > 0) Object.assign((sending.headers ??= {}), added);
  }

  /**
   * A redirect about to be followed: its target, as it will be requested, must be allowed
   * by its own robots.txt. A disallowed target fails the request without retries (never
   * requested); one whose robots.txt cannot be read now fails it for a later retry.
   */
  async checkRedirect(request: Request, target: URL | string | undefined): Promise<void> {
    if (target === undefined) return;
    const url = String(target);
    const refused = await (await this.robotsClient()).refuseRedirect(url);
    if (!refused) return;
    if (!refused.retryLater) {
      request.noRetry = true;
      this.log.info(`repkit: ${request.url} redirects to ${url}; not followed: ${refused.reason}`);
    }
    throw new RedirectRefusedError(url, refused.reason);
  }

  pausedBy(origin: string, ms: number): void {
    this.#waitingLog.pausedBy(origin, ms);
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

  async #makeClient(): Promise<RobotsClient> {
    const options = this.#options;
    if (options.client) return options.client;
    let dispatcher = options.dispatcher;
    const proxies = internalsOf(this.#crawler).proxyConfiguration;
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
