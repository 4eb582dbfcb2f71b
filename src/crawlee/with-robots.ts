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
/** Any Crawlee crawler class (`BasicCrawler` and its subclasses), as `withRepkitRobots` takes it. */
export type AnyCrawlerClass = abstract new (...args: any[]) => BasicCrawler<any>;

/** Behind `repkit/crawlee`'s `withRepkitRobots` (documented on that entry, where editors show it). */
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
