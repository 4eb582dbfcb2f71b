/**
 * Run in a child process per peer (`node --expose-gc .bench/bench/memory.js NAME`):
 * parses the whole corpus, keeps every result alive, checks URLs, and prints retained heap
 * and peak RSS as JSON, so that peers never share a heap.
 */
import { peer } from './peers.ts';
import { corpusFiles, urlsFor } from './workloads.ts';

const gc = (globalThis as { gc?: () => void }).gc!;
const files = corpusFiles();
const urls = files.map((f, i) => urlsFor(f.body, 20, i));
const target = peer(process.argv[2]!);
// Typed arrays keep their storage outside the JS heap: it is counted too.
const used = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
gc();
const before = used();
const parsed = files.map((f) => target.parse(f.body));
let allowed = 0;
parsed.forEach((p, i) => {
  for (const url of urls[i]!) if (p.check(url, 'Googlebot')) allowed++;
});
gc();
const retained = used() - before;
console.log(
  JSON.stringify({
    retainedBytes: retained,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    kept: parsed.length,
    allowed,
  }),
);
