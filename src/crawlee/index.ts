/**
 * repkit/crawlee: repkit as the robots.txt layer of a Crawlee crawler. `crawlee` is an optional
 * peer dependency: only this entry needs it.
 */
export {
  withRepkitRobots,
  type RepkitRobotsOptions,
  type RepkitRobotsCrawler,
  RedirectRefusedError,
  isRedirectRefusedError,
} from './with-robots.ts';
export { RepkitRobotsTxtFile, type SitemapOptions } from './robots-file.ts';
