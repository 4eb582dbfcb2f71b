/**
 * repkit/sitemaps: the sitemaps a site names, read safely from the open web: sitemap XML
 * (urlsets and indexes, gzip'd or not), plain URL lists, and the RSS 2.0 and Atom 1.0 feeds
 * Google takes as sitemaps. Streaming and bounded whatever the input, through a
 * `RobotsClient` (its cache, address guard, proxy, politeness and identity), each sitemap
 * judged against its own robots.txt, each entry given its verdict. Node only.
 *
 * @module repkit/sitemaps
 */
export { readSitemaps, type SitemapSource } from './read.ts';
export {
  SITEMAP_DEFAULTS,
  type SitemapBounds,
  type ReadSitemapsOptions,
  type SitemapEntry,
  type SitemapProblem,
} from './options.ts';
export { SitemapError, isSitemapError, type SitemapFailure } from './errors.ts';
