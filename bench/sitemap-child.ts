/**
 * `node .bench/bench/sitemap-child.js READER URL`: one reader (or floor) on one sitemap in a
 * process of its own, printing entries, time, peak RSS and the RSS before reading (with the reader's
 * packages loaded) as JSON: what it does to memory is its own.
 */
import { FLOOR_READERS, SITEMAP_READERS } from './sitemap-readers.ts';

const [reader, url] = process.argv.slice(2) as [string, string];
const read = await (SITEMAP_READERS[reader] ?? FLOOR_READERS[reader])!();
// What the process holds with the reader's packages loaded, before reading.
const baseRssBytes = process.memoryUsage().rss;
const start = performance.now();
let entries = -1;
let error: string | undefined;
try {
  entries = await read(url);
} catch (caught) {
  error = (caught as Error).message.split('\n')[0];
}
console.log(
  JSON.stringify({
    entries,
    ms: performance.now() - start,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    baseRssBytes,
    ...(error ? { error } : {}),
  }),
);
process.exit(0);
