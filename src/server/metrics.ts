import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { MemoryStoreStats } from '../cache/internal.ts';
import type { CheckResult, FetchReport } from '../fetch/index.ts';
import { readLater } from '../fetch/internal.ts';
import { RequestHistogram } from './request-histogram.ts';

/** Sets a counter's series to `counts` (those above 0), read when `/metrics` is. */
function setCounts(counter: Counter, label: string, counts: Record<string, number>): void {
  counter.reset();
  for (const [value, count] of Object.entries(counts)) {
    if (count > 0) counter.inc({ [label]: value }, count);
  }
}

/** The service's Prometheus metrics: checks, cache hits and misses, fetches, fetch latency. */
export class ServiceMetrics {
  readonly registry = new Registry();
  // Checks are counted here and handed to their counters when `/metrics` is read:
  // prom-client hashes the labels on every increment, even through a bound series, which
  // showed on the cached check's path.
  readonly #verdicts = { allowed: 0, disallowed: 0, unreachable: 0 };
  readonly #sources = { hit: 0, miss: 0, stale: 0 };
  private readonly checks: Counter = new Counter({
    name: 'repkit_checks_total',
    help: 'URL checks answered, by verdict: allowed, disallowed by the file, or unreachable (the robots.txt, or a wall in its place, could not be read: disallowed for now)',
    labelNames: ['verdict'],
    registers: [this.registry],
    collect: () => setCounts(this.checks, 'verdict', this.#verdicts),
  });
  private readonly cache: Counter = new Counter({
    name: 'repkit_cache_total',
    help: 'Checks by where their robots.txt came from: hit (fresh copy), miss (fetched), stale',
    labelNames: ['result'],
    registers: [this.registry],
    collect: () => setCounts(this.cache, 'result', this.#sources),
  });
  private readonly fetches = new Counter({
    name: 'repkit_fetches_total',
    help: 'robots.txt fetches by status class (2xx, 3xx, 4xx, 5xx, network; not-modified: a stale copy revalidated by a 304)',
    labelNames: ['class'],
    registers: [this.registry],
  });
  private readonly requests = new RequestHistogram([0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10]);
  private readonly latency = new Histogram({
    name: 'repkit_fetch_duration_seconds',
    help: 'robots.txt fetch time, redirects and body included',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  /**
   * @param memoryStore the in-memory store's counters, when the service keeps its cache in
   *   memory: entries, bytes, and fresh entries pushed out by its bounds (each may cost a
   *   fetch again).
   */
  constructor(
    memoryStore?: () => MemoryStoreStats,
    storeUp?: () => boolean,
    /** The running repkit's version, for `repkit_build_info`. */
    version = 'unknown',
  ) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'repkit_build_info',
      help: 'Always 1: the running version of repkit and of Node.js, as labels',
      labelNames: ['version', 'node'],
      registers: [this.registry],
    }).set({ version, node: process.versions.node }, 1);
    this.registry.registerMetric(this.requests.asMetric());
    new Gauge({
      name: 'repkit_store_up',
      help: 'Whether the cache store answers: 1, or 0 while Redis is down or hung (the per-process cache answers then)',
      registers: [this.registry],
      collect() {
        this.set(storeUp === undefined || storeUp() ? 1 : 0);
      },
    });
    if (!memoryStore) return;
    const gauge = (name: string, help: string, read: (stats: MemoryStoreStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read(memoryStore()));
        },
      });
    gauge('repkit_cache_entries', 'Entries in the in-memory cache', (s) => s.entries);
    gauge(
      'repkit_cache_bytes',
      'Bytes the in-memory cache holds (bodies compressed)',
      (s) => s.bytes,
    );
    const evictions: Counter = new Counter({
      name: 'repkit_cache_evictions_total',
      help: 'Entries the in-memory cache pushed out while still fresh (each may cost a fetch again)',
      registers: [this.registry],
      collect() {
        evictions.reset();
        evictions.inc(memoryStore().evictions);
      },
    });
  }

  /** Checks answered together (a batch). */
  checksAnswered(results: readonly Pick<CheckResult, 'allowed' | 'source' | 'reason'>[]): void {
    const verdicts = this.#verdicts;
    const sources = this.#sources;
    for (const result of results) {
      if (result.allowed) verdicts.allowed++;
      else if (readLater(result)) verdicts.unreachable++;
      else verdicts.disallowed++;
      if (result.source === 'cache') sources.hit++;
      else if (result.source === 'fetched') sources.miss++;
      else sources.stale++;
    }
  }

  /** One answered request; `route` is the route's pattern (`/v1/check`), or `unmatched`. */
  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.observe(route, method, status, seconds);
  }

  fetch(report: FetchReport): void {
    const status = report.status;
    const kind = report.notModified
      ? 'not-modified'
      : status === 0
        ? 'network'
        : `${Math.floor(status / 100)}xx`;
    this.fetches.inc({ class: kind });
    this.latency.observe(report.durationMs / 1000);
  }
}
