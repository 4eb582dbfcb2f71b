import type { BasicCrawler, Request, RobotsTxtFile } from 'crawlee';

/**
 * Every place repkit/crawlee reaches past Crawlee 3's public API, in one file: the names
 * here are private or protected in Crawlee's types, plain properties and methods at runtime.
 * Crawlee 4 (release candidates, not yet in the registry here) replaces the dequeue and the
 * robots.txt lookup with `IRequestManager.recordPacingSignal` and `readiness()`: porting the
 * adapter is porting this file. (Taking a deferred request out of its queue uses the public
 * API of the queue's storage client: `deferral.ts`.)
 */
export interface CrawlerInternals {
  /**
   * Crawlee's own robots checks (`addRequests`, `enqueueLinks`, before a request) turned on
   * and answered by `isAllowed`.
   */
  answerRobotsChecks(isAllowed: (url: string) => Promise<boolean>): void;
  /** The hooks run before and after each navigation; undefined for crawlers that do not navigate. */
  readonly preNavigationHooks: unknown[] | undefined;
  readonly postNavigationHooks: unknown[] | undefined;
  /** What sends the crawler's pages: got (HTTP crawlers), a browser, or nothing of its own. */
  readonly sender: 'got' | 'browser' | 'none';
  /** The request queue (or list) requests are dequeued from. */
  readonly requestManager: unknown;
  readonly proxyConfiguration: ProxyConfigurationLike | undefined;
  /**
   * The crawler's next request comes from `next`, given Crawlee's dequeue to take one from
   * the queue: what it answers is crawled (null: nothing now).
   */
  interceptDequeue(next: (dequeue: () => Promise<Request | null>) => Promise<Request | null>): void;
  /**
   * The pool's two questions, "may a task start?" and "is the crawl finished?", are answered
   * by `ready` and `finished`, given Crawlee's own answers to ask. (A crawler given its own
   * `isFinishedFunction` or `keepAlive` answers the second itself.)
   */
  interceptPool(hooks: {
    ready(crawlee: () => Promise<boolean>): Promise<boolean>;
    finished(crawlee: () => Promise<boolean>): Promise<boolean>;
  }): void;
  /** The crawler's robots.txt for a URL (its sitemaps, Crawlee's own checks) comes from `file`. */
  interceptRobotsFile(file: (url: string) => Promise<RobotsTxtFile | undefined>): void;
}

export interface ProxyConfigurationLike {
  newUrl(): Promise<string | undefined>;
}

type Internal = Record<string, unknown> & {
  _fetchNextRequest(): Promise<Request | null>;
  _isTaskReadyFunction(): Promise<boolean>;
  _defaultIsFinishedFunction(): Promise<boolean>;
};

/** `crawler`'s internals, as Crawlee 3.18 has them. */
export function internalsOf(crawler: BasicCrawler): CrawlerInternals {
  const self = crawler as unknown as Internal;
  const pre = self['preNavigationHooks'];
  const post = self['postNavigationHooks'];
  return {
    answerRobotsChecks(isAllowed) {
      // Crawlee's own checks read this flag, then call this method; shadowed on the instance.
      self['respectRobotsTxtFile'] = true;
      self['isAllowedBasedOnRobotsTxtFile'] = isAllowed;
    },
    preNavigationHooks: Array.isArray(pre) ? pre : undefined,
    postNavigationHooks: Array.isArray(post) ? post : undefined,
    sender:
      typeof self['_requestAsBrowser'] === 'function'
        ? 'got'
        : typeof self['browserPool'] === 'object'
          ? 'browser'
          : 'none',
    get requestManager() {
      return self['requestManager'];
    },
    get proxyConfiguration() {
      return self['proxyConfiguration'] as ProxyConfigurationLike | undefined;
    },
    interceptDequeue(next) {
      const dequeue = self._fetchNextRequest.bind(crawler);
      self['_fetchNextRequest'] = () => next(dequeue);
    },
    interceptPool({ ready, finished }) {
      const crawleeReady = self._isTaskReadyFunction.bind(crawler);
      const crawleeFinished = self._defaultIsFinishedFunction.bind(crawler);
      self['_isTaskReadyFunction'] = () => ready(crawleeReady);
      self['_defaultIsFinishedFunction'] = () => finished(crawleeFinished);
    },
    interceptRobotsFile(file) {
      self['getRobotsTxtFileForUrl'] = file;
    },
  };
}
