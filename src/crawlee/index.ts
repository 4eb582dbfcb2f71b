/**
 * repkit/crawlee: repkit as the robots.txt layer of a Crawlee crawler. `crawlee` is an optional
 * peer dependency: only this entry needs it, and without it loading this entry fails with a
 * `MissingPeerError` that says to install it.
 *
 * @module repkit/crawlee
 */
import { loadWithPeer } from '../core/internal.ts';
import type * as Adapter from './with-robots.ts';
import type * as File from './robots-file.ts';

const [adapter, file]: [typeof Adapter, typeof File] = await loadWithPeer(
  'crawlee',
  'repkit/crawlee',
  () => Promise.all([import('./with-robots.ts'), import('./robots-file.ts')]),
);

/**
 * A subclass of a Crawlee crawler class (BasicCrawler, HttpCrawler, CheerioCrawler,
 * PlaywrightCrawler...) whose robots.txt decisions come from repkit with Google's semantics:
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
 *
 * @throws InvalidOptionError when `options.userAgent` is missing or blank.
 * @example
 * ```ts
 * import { CheerioCrawler } from 'crawlee';
 * import { withRepkitRobots } from 'repkit/crawlee';
 *
 * const Crawler = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0' });
 * await new Crawler({ respectRobotsTxtFile: true, requestHandler }).run(['https://example.com/']);
 * ```
 * @function
 */
export const withRepkitRobots = adapter.withRepkitRobots;
/**
 * A crawler's request redirected to a URL that is not requested: its own robots.txt
 * disallows it, or cannot be read now (then the request is retried later).
 *
 * @class
 */
export const RedirectRefusedError = adapter.RedirectRefusedError;
export type RedirectRefusedError = Adapter.RedirectRefusedError;
/**
 * Whether `error` is a `RedirectRefusedError`.
 *
 * @function
 */
export const isRedirectRefusedError: (error: unknown) => error is RedirectRefusedError =
  adapter.isRedirectRefusedError;
/**
 * One origin's robots.txt as repkit holds it, with the methods of Crawlee's `RobotsTxtFile`,
 * so that Crawlee's own callers (`enqueueLinks`, sitemap helpers) use repkit's verdicts.
 *
 * `isAllowed` is false only where the file disallows the URL: while the robots.txt is
 * unreachable (5xx, 429, timeout) it answers true, because Crawlee drops a URL it is told is
 * disallowed; the crawler defers such URLs when their turn comes instead.
 *
 * @class
 */
export const RepkitRobotsTxtFile = file.RepkitRobotsTxtFile;
export type RepkitRobotsTxtFile = File.RepkitRobotsTxtFile;
export type { RepkitRobotsOptions, RepkitRobotsCrawler, AnyCrawlerClass } from './with-robots.ts';
