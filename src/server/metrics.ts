import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { MemoryStoreStats } from '../cache/internal.ts';
import type { CheckResult } from '../fetch/index.ts';
import type { FetchReport } from '../fetch/internal.ts';

/** The service's Prometheus metrics: checks, cache hits and misses, fetches, fetch latency. */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly checks = new Counter({
    name: 'repkit_checks_total',
    help: 'URL checks answered, by verdict',
    labelNames: ['verdict'],
    registers: [this.registry],
  });
  private readonly cache = new Counter({
    name: 'repkit_cache_total',
    help: 'Checks by where their robots.txt came from: hit (fresh copy), miss (fetched), stale',
    labelNames: ['result'],
    registers: [this.registry],
  });
  private readonly fetches = new Counter({
    name: 'repkit_fetches_total',
    help: 'robots.txt fetches by status class (2xx, 3xx, 4xx, 5xx, network)',
    labelNames: ['class'],
    registers: [this.registry],
  });
  private readonly requests = new Histogram({
    name: 'repkit_http_request_duration_seconds',
    help: 'HTTP requests answered, by route (its pattern: bounded), method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
    registers: [this.registry],
  });
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
  constructor(memoryStore?: () => MemoryStoreStats, storeUp?: () => boolean) {
    collectDefaultMetrics({ register: this.registry });
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
    gauge(
      'repkit_cache_evictions',
      'Entries the in-memory cache pushed out while still fresh, since start (each may cost a fetch again)',
      (s) => s.evictions,
    );
  }

  // Each label set's series, looked up once: prom-client hashes the labels on every call
  // otherwise, which showed on the cached check's path.
  private readonly allowed = this.checks.labels('allowed');
  private readonly disallowed = this.checks.labels('disallowed');
  private readonly bySource = {
    cache: this.cache.labels('hit'),
    fetched: this.cache.labels('miss'),
    stale: this.cache.labels('stale'),
  };
  /** Per route, method and status (all bounded: route patterns, not URLs). */
  private readonly requestSeries = new Map<string, ReturnType<Histogram['labels']>>();

  /** Checks answered together (a batch): each series counted once, by how many. */
  checksAnswered(results: readonly Pick<CheckResult, 'allowed' | 'source'>[]): void {
    let allowed = 0;
    const sources = { cache: 0, fetched: 0, stale: 0 };
    for (const result of results) {
      if (result.allowed) allowed++;
      sources[result.source]++;
    }
    if (allowed > 0) this.allowed.inc(allowed);
    if (allowed < results.length) this.disallowed.inc(results.length - allowed);
    for (const source of ['cache', 'fetched', 'stale'] as const) {
      if (sources[source] > 0) this.bySource[source].inc(sources[source]);
    }
  }

  /** One answered request; `route` is the route's pattern (`/v1/check`), or `unmatched`. */
  request(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      series = this.requests.labels(route, method, String(status));
      this.requestSeries.set(key, series);
    }
    series.observe(seconds);
  }

  fetch(report: FetchReport): void {
    const status = report.status;
    this.fetches.inc({ class: status === 0 ? 'network' : `${Math.floor(status / 100)}xx` });
    this.latency.observe(report.durationMs / 1000);
  }
}
