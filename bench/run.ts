/**
 * `npm run bench`: repkit against robots-parser, measured in one run on this machine.
 * Figures are reported as ratios (repkit ÷ peer for throughput, peer ÷ repkit for time and
 * memory), so they hold across machines better than absolute numbers do.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchBatch } from './batch.ts';
import { benchFleet } from './fleet.ts';
import { BARE_ROUTE, benchService } from './service.ts';
import { CRAWLEE_OWN, benchCrawlee, benchCrawleeDeferral } from './crawlee.ts';
import { benchSitemaps } from './sitemaps.ts';
import { benchScan } from './scan.ts';
import { PEERS, type Peer } from './peers.ts';
import {
  corpusFiles,
  issueWorkloads,
  pathologicalCases,
  urlsFor,
  usageWorstCases,
  worstCases,
} from './workloads.ts';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** Runs `work` until `minMs` have passed (at least `minRounds` times); returns ms per round. */
function timePerRound(work: () => void, minMs = 1500, minRounds = 3): number {
  // The heap is collected first, then the warm-up: a full collection frees the shapes of
  // objects no longer alive (every parse result of the turn before), and the engine then
  // discards the optimized code that checks for them (V8's "weak objects" deopts, seen with
  // --trace-deopt for both parsers' code after these collections). Warming up before it, as
  // this once did, measured that re-optimization in every turn.
  gc();
  work(); // warm-up
  let rounds = 0;
  const start = performance.now();
  while (rounds < minRounds || performance.now() - start < minMs) {
    work();
    rounds++;
  }
  return (performance.now() - start) / rounds;
}

/**
 * ms per round of each peer's `work`, the peers taking turns for `turns` turns of `minMs`
 * each (the order swapped every turn), and the median turn kept: a noisy moment on this
 * shared machine then slows one turn of one peer, not a whole measurement, and the ratio
 * stays fair. Eleven turns: on this machine single turns of the same work moved by half
 * (seen 2026-11-24), and a median of seven still moved the ratio by a few tenths.
 */
function medianTimePerRound(
  works: { name: string; work: () => void }[],
  turns = 11,
  minMs = 500,
): Map<string, number> {
  const times = new Map<string, number[]>(works.map((w) => [w.name, []]));
  for (let turn = 0; turn < turns; turn++) {
    const order = turn % 2 === 0 ? works : [...works].reverse();
    for (const { name, work } of order) times.get(name)!.push(timePerRound(work, minMs, 2));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  return new Map([...times].map(([name, values]) => [name, median(values)]));
}

const results: Record<string, Record<string, number>> = {};
function record(metric: string, peer: string, value: number): void {
  (results[metric] ??= {})[peer] = value;
}

const files = corpusFiles();
const totalBytes = files.reduce((sum, f) => sum + f.bytes, 0);
console.log(`corpus: ${files.length} files, ${(totalBytes / 1e6).toFixed(2)} MB`);

// 1. Parse throughput over the whole corpus, then over its two kinds of file: 165 of them
// are HTML pages served as robots.txt (half the bytes), which robots-parser reads as lines it
// drops, and the rest are robots.txt files.
const isHtml = (f: { body: string }) => /^[\s\ufeff]*</.test(f.body);
const subsets = [
  { metric: 'parse MB/s (whole corpus)', files },
  { metric: 'parse MB/s (robots.txt files)', files: files.filter((f) => !isHtml(f)) },
  { metric: 'parse MB/s (HTML pages served as robots.txt)', files: files.filter(isHtml) },
];
/** MB/s of each peer doing `work` (given the peer) over `bytes` of input, taking turns. */
function recordThroughput(metric: string, bytes: number, work: (peer: Peer) => void): void {
  const times = medianTimePerRound(PEERS.map((p) => ({ name: p.name, work: () => work(p) })));
  for (const [name, ms] of times) record(metric, name, bytes / 1e6 / (ms / 1000));
}

for (const subset of subsets) {
  const bytes = subset.files.reduce((sum, f) => sum + f.bytes, 0);
  recordThroughput(subset.metric, bytes, (p) => {
    for (const f of subset.files) p.parse(f.body);
  });
}

// 1b. Parse and check: each file parsed and asked about one URL, as a crawler does when it
// meets a site, so work a parser defers to the first check is counted too.
const firstUrl = 'https://example.com/some/page.html?q=1';
recordThroughput('parse + first check MB/s (whole corpus)', totalBytes, (p) => {
  for (const f of files) p.parse(f.body).check(firstUrl, 'Googlebot');
});

// 1c. The same from bytes, as a crawler has them (the fetch client passes bytes): repkit
// parses the bytes, robots-parser gets them decoded by TextDecoder first.
recordThroughput('parse MB/s (whole corpus, bytes in)', totalBytes, (p) => {
  for (const f of files) p.parseBytes(f.raw);
});
recordThroughput('parse + first check MB/s (whole corpus, bytes in)', totalBytes, (p) => {
  for (const f of files) p.parseBytes(f.raw).check(firstUrl, 'Googlebot');
});

// 1d. The same two after a full collection that freed every result of the pass before, as a
// one-shot CLI run, a serverless call or a service whose cache churns meets them: each pass
// is preceded by an untimed gc() and timed alone, with no warm-up after it, then run again
// at once (the steady pass it is compared with, so that a noisy moment on this shared machine
// slows both of a pair). The report gives each peer's speed after a collection as a share of
// its own speed in the pass right after.
const keptAfterCollection: Record<string, Record<string, number>> = {};
/** MB/s of each peer doing `work` once after each of 21 full collections, taking turns. */
function recordAfterCollection(metric: string, bytes: number, work: (peer: Peer) => void): void {
  const times = new Map<string, { after: number[]; again: number[] }>(
    PEERS.map((p) => [p.name, { after: [], again: [] }]),
  );
  const timed = (p: Peer) => {
    const started = performance.now();
    work(p);
    return performance.now() - started;
  };
  for (let pass = 0; pass < 21; pass++) {
    for (const p of pass % 2 === 0 ? PEERS : [...PEERS].reverse()) {
      gc();
      const after = timed(p);
      times.get(p.name)!.after.push(after);
      times.get(p.name)!.again.push(timed(p));
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  for (const [name, { after, again }] of times) {
    record(metric, name, bytes / 1e6 / (median(after) / 1000));
    (keptAfterCollection[metric] ??= {})[name] = median(again) / median(after);
  }
}
recordAfterCollection(
  'parse MB/s after a full collection (whole corpus, bytes in)',
  totalBytes,
  (p) => {
    for (const f of files) p.parseBytes(f.raw);
  },
);
recordAfterCollection(
  'parse + first check MB/s after a full collection (whole corpus, bytes in)',
  totalBytes,
  (p) => {
    for (const f of files) p.parseBytes(f.raw).check(firstUrl, 'Googlebot');
  },
);

// 2. Checks per second: one parse, 10,000 URLs, on each of the 50 largest files.
const largest = [...files].sort((a, b) => b.bytes - a.bytes).slice(0, 50);
const workloads = largest.map((f, i) => ({ body: f.body, urls: urlsFor(f.body, 10_000, i + 1) }));
for (const p of PEERS) {
  const parsed = workloads.map((w) => p.parse(w.body));
  const ms = timePerRound(
    () => {
      parsed.forEach((robots, i) => {
        for (const url of workloads[i]!.urls) robots.check(url, 'Googlebot');
      });
    },
    3000,
    2,
  );
  record('checks/s (50 largest files × 10,000 URLs)', p.name, (50 * 10_000) / (ms / 1000));
}

// 3. Worst cases as a crawler meets them: each round parses the file afresh and checks URLs
// not checked before (a file is fetched, parsed and asked about; the same question is never
// asked twice in a row), so no answer can come from a memo of the round or the check before.
// Timed: the parse and every check of the round, as the peers are timed.
/** µs per round of `peer` parsing `body` and checking each of `urls` once. */
function parseAndCheck(body: string, urls: readonly string[], peerName: string): void {
  const robots = PEERS.find((p) => p.name === peerName)!.parse(body);
  for (const url of urls) robots.check(url, 'Googlebot');
}
const worstRows = [
  ...pathologicalCases().map((c) => ({ ...c, checks: 1 })),
  // The wildcard row is one check of a fresh file, as crawlers meet it; the others check
  // every URL of the row after one parse.
  ...issueWorkloads().map((w, i) => ({ ...w, checks: i === 0 ? 1 : w.urls.length })),
];
for (const row of worstRows) {
  // Rounds with one check take the URLs in turn; the others check them all.
  const label =
    row.checks === 1
      ? 'µs per parse + one check'
      : `µs per parse + ${row.urls.length.toLocaleString('en')} checks`;
  const times = medianTimePerRound(
    PEERS.map((p) => {
      let turn = 0;
      const work =
        row.checks === 1
          ? () => parseAndCheck(row.body, [row.urls[turn++ % row.urls.length]!], p.name)
          : () => parseAndCheck(row.body, row.urls, p.name);
      return { name: p.name, work };
    }),
    5,
    500,
  );
  for (const [name, ms] of times) record(`${label}: ${row.name}`, name, ms * 1000);
}

// 3b. What repkit's memo of the last path buys, shown apart: one parsed file asked the same
// URL again and again, which a crawler never does. Not a figure to quote as check speed.
for (const w of issueWorkloads().slice(0, 1)) {
  for (const p of PEERS) {
    const robots = p.parse(w.body);
    const url = w.urls[0]!;
    const checks = 20;
    const ms = timePerRound(
      () => {
        for (let i = 0; i < checks; i++) robots.check(url, 'Googlebot');
      },
      1000,
      2,
    );
    record(`µs per check, the same URL again (memo): ${w.name}`, p.name, (ms * 1000) / checks);
  }
}

// 3c. Worst single checks, repkit alone (the bound is 50 ms): the first check of a freshly
// parsed file (patterns made, nothing sorted) and later ones, each a URL not checked before.
{
  let worst = 0;
  for (const w of worstCases()) {
    const robots = PEERS[0]!.parse(w.body);
    const started = performance.now();
    robots.check(w.urls[0]!, 'Googlebot');
    const first = performance.now() - started;
    let turn = 1;
    const later = timePerRound(
      () => robots.check(w.urls[turn++ % w.urls.length]!, 'Googlebot'),
      500,
      3,
    );
    worst = Math.max(worst, first, later);
    record(`worst case ms, first check: ${w.name}`, 'repkit', first);
    record(`worst case ms, later checks: ${w.name}`, 'repkit', later);
  }
  record('worst case ms: the slowest single check above', 'repkit', worst);
}

// 3d. Usage answers, repkit alone (robots-parser reads neither Content-Usage nor TDMRep):
// the first answer of a freshly parsed file, parse included, and later ones.
for (const w of usageWorstCases()) {
  const started = performance.now();
  const answer = w.prepare();
  answer(w.urls[0]!);
  const first = performance.now() - started;
  let turn = 1;
  const later = timePerRound(() => answer(w.urls[turn++ % w.urls.length]!), 500, 3);
  record(`worst case ms, parse + first answer: ${w.name}`, 'repkit', first);
  record(`worst case ms, later answers: ${w.name}`, 'repkit', later);
}

// `REPKIT_BENCH=core` stops here: the core's rows alone, without memory, the CLI, the service,
// Crawlee and the fleet (minutes of the run).
const coreOnly = process.env.REPKIT_BENCH === 'core';

// 4. Memory: each peer in its own process.
for (const p of coreOnly ? [] : PEERS) {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(new URL('./memory.js', import.meta.url)), p.name],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  const { retainedBytes, peakRssBytes } = JSON.parse(out) as {
    retainedBytes: number;
    peakRssBytes: number;
  };
  record('retained heap MB (corpus parsed and kept)', p.name, retainedBytes / 1e6);
  record('peak RSS MB (same process)', p.name, peakRssBytes / 1e6);
}

// 5. The CLI's batch command, as users run it (needs `npm run build`).
if (!coreOnly) await benchBatch(record);

// 6. The HTTP service, over loopback, cache warm (needs `npm run build`).
if (!coreOnly) await benchService(record);

// 6b. A Crawlee crawl with repkit, with Crawlee's own robots.txt, and with none.
if (!coreOnly) {
  await benchCrawlee(record);
  await benchCrawleeDeferral(record);
}

// 6c. Sitemaps: repkit's reader against sitemapper and Crawlee's loader.
if (!coreOnly) await benchSitemaps(record);

// 6d. repkit scan over gzip'd WARC files: 1 and 2 workers, 2 processes sharing one Redis.
if (!coreOnly) await benchScan(record);

// 7. A crawler fleet on one Redis (the bench's own redis-server): fetches per origin, store
// round trips, CPU and RSS per process, cold, warm and with Redis stopped.
if (!coreOnly)
  await benchFleet(record, [
    [2, 10_000],
    [4, 10_000],
    [4, 50_000],
  ]);

// Report: ratios against robots-parser, higher is better for repkit.
const lowerIsBetter = (metric: string) => metric.startsWith('µs') || metric.includes('MB (');
console.log('\n| metric | repkit | robots-parser | repkit advantage |\n|---|---|---|---|');
const summary: Record<string, number> = {};
for (const [metric, byPeer] of Object.entries(results)) {
  const ours = byPeer['repkit']!;
  const theirs = byPeer['robots-parser'];
  const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(2));
  const route = byPeer[BARE_ROUTE];
  if (theirs === undefined && route !== undefined) {
    // The service's rows: against a bare fastify route in the same run (robots-parser serves
    // nothing), as the share of the route's requests/s that the service keeps.
    summary[metric] = ours / route;
    console.log(
      `| ${metric} | ${fmt(ours)} | (${BARE_ROUTE}: ${fmt(route)}) | ${(ours / route).toFixed(2)}× the route |`,
    );
    continue;
  }
  const crawlee = byPeer[CRAWLEE_OWN];
  if (theirs === undefined && crawlee !== undefined) {
    // The Crawlee row: against Crawlee's own robots.txt option, with the crawl without any.
    const others = Object.entries(byPeer)
      .filter(([peer]) => peer !== 'repkit')
      .map(([peer, value]) => `${peer}: ${fmt(value)}`)
      .join('; ');
    summary[metric] = ours / crawlee;
    console.log(
      `| ${metric} | ${fmt(ours)} | (${others}) | ${(ours / crawlee).toFixed(2)}× Crawlee's own |`,
    );
    continue;
  }
  if (metric.startsWith('sitemap ')) {
    // The sitemap rows: against the best of sitemapper and Crawlee's loader in the same run.
    const peers = Object.entries(byPeer).filter(([peer]) => peer !== 'repkit');
    const others = peers.map(([peer, value]) => `${peer}: ${fmt(value)}`).join('; ');
    const lower = metric.includes('RSS') || metric.endsWith(': ms');
    const best = lower
      ? Math.min(...peers.map(([, v]) => v))
      : Math.max(...peers.map(([, v]) => v));
    const ratio = lower ? best / ours : ours / best;
    if (!metric.endsWith(': entries')) summary[metric] = ratio;
    console.log(`| ${metric} | ${fmt(ours)} | (${others}) | ${ratio.toFixed(2)}× the best peer |`);
    continue;
  }
  if (metric.startsWith('floor: ')) {
    // What a process holds doing less than any reader: figures alone, no repkit among them.
    const figures = Object.entries(byPeer).map(([peer, value]) => `${peer}: ${fmt(value)}`);
    console.log(`| ${metric} | | (${figures.join('; ')}) | |`);
    continue;
  }
  if (metric.startsWith('scan captures/s')) {
    // The scan rows: beside what warcio alone reads (its own inflate), the floor of WARC input.
    const floor = byPeer['warcio reading only'];
    const context =
      floor === undefined ? '(no equivalent)' : `(warcio reading only: ${fmt(floor)})`;
    console.log(`| ${metric} | ${fmt(ours)} | ${context} | |`);
    continue;
  }
  if (theirs === undefined) {
    // Nothing to compare with (robots-parser does not fetch): the figure alone.
    console.log(`| ${metric} | ${fmt(ours)} | (no equivalent) | |`);
    continue;
  }
  const ratio = lowerIsBetter(metric) ? theirs / ours : ours / theirs;
  summary[metric] = ratio;
  // After-collection rows also say how much of its speed in the pass right after each keeps.
  const kept = keptAfterCollection[metric]
    ? ` (of the speed of the pass right after: repkit ${keptAfterCollection[metric]['repkit']!.toFixed(2)}×, robots-parser ${keptAfterCollection[metric]['robots-parser']!.toFixed(2)}×)`
    : '';
  console.log(`| ${metric} | ${fmt(ours)} | ${fmt(theirs)} | ${ratio.toFixed(1)}×${kept} |`);
}
mkdirSync('bench-results', { recursive: true });
writeFileSync(
  'bench-results/core.json',
  JSON.stringify(
    {
      node: process.version,
      date: new Date().toISOString(),
      results,
      ratios: summary,
      keptAfterCollection,
    },
    null,
    2,
  ),
);
console.log('\nwritten: bench-results/core.json');
