import type { BasicCrawler } from 'crawlee';
import type { RobotsClient } from '../fetch/index.ts';
import { InvalidOptionError } from '../fetch/index.ts';
import { RobotsAdapter, type RepkitRobotsOptions } from './adapter.ts';

export type { RepkitRobotsOptions } from './adapter.ts';
export { RedirectRefusedError, isRedirectRefusedError } from './errors.ts';

/** What `withRepkitRobots` adds to a crawler. */
export interface RepkitRobotsCrawler {
  /** The robots.txt client the crawler's decisions come from (made at first use). */
  robotsClient(): Promise<RobotsClient>;
}

// TypeScript's mixin rule: the base constructor takes `...args: any[]`; the crawler's context
// type is the caller's.
/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyCrawlerClass = abstract new (...args: any[]) => BasicCrawler<any>;

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
    readonly #adapter: RobotsAdapter;

    constructor(...args: any[]) {
      /* eslint-enable @typescript-eslint/no-explicit-any */
      super(...args);
      this.#adapter = new RobotsAdapter(this, options);
      const respects = (args[0] as { respectRobotsTxtFile?: unknown })?.respectRobotsTxtFile;
      if (respects !== false) this.#adapter.attach();
    }

    robotsClient(): Promise<RobotsClient> {
      return this.#adapter.robotsClient();
    }

    override async teardown(): Promise<void> {
      await this.#adapter.release();
      await super.teardown();
      await this.#adapter.close();
    }
  }
  return RepkitCrawler;
}
