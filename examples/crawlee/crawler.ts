/**
 * A CheerioCrawler whose robots.txt layer is repkit: copy this file, set your crawler's name
 * and start URLs, and run it with `npx tsx crawler.ts https://example.com/`.
 *
 * - Disallowed URLs are never requested, with Google's reading of robots.txt.
 * - A robots.txt that answers 5xx/429 or times out holds that site's URLs back (they come back
 *   when the file is tried again) instead of crawling them as if allowed.
 * - Crawl-delay spaces requests per host; a page answering 429/503 pauses its host.
 * - With REDIS_URL set (and `npm i redis`), robots.txt results and per-host pauses are shared
 *   by every process.
 *
 * Needs `npm i crawlee repkit` (and `redis` only for REDIS_URL).
 */
import { CheerioCrawler } from 'crawlee';
import { withRepkitRobots } from 'repkit/crawlee';

const start = process.argv.slice(2);
if (start.length === 0) {
  console.error('usage: tsx crawler.ts <start-url...>');
  process.exit(2);
}

// Loaded only when asked for: without REDIS_URL the example needs no `redis` package.
const store = process.env.REDIS_URL
  ? new (await import('repkit/cache/redis')).RedisStore({ url: process.env.REDIS_URL })
  : undefined;

const Crawler = withRepkitRobots(CheerioCrawler, {
  // Sent with robots.txt requests; "ExampleBot" is the name robots.txt groups are matched by.
  userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
  ...(store ? { store } : {}),
});

const crawler = new Crawler({
  respectRobotsTxtFile: true,
  maxRequestsPerCrawl: Number(process.env.MAX_PAGES ?? 50),
  onSkippedRequest: ({ url, reason }) => console.log(`skipped  ${url} (${reason})`),
  async requestHandler({ request, $, enqueueLinks }) {
    console.log(`crawled  ${request.url}  ${$('title').text().trim()}`);
    await enqueueLinks({ strategy: 'same-hostname' });
  },
});

await crawler.run(start);
await store?.close();
