import type { Metric } from 'prom-client';

/** One label set's counts: per bucket (not cumulative), then the sum and count of values. */
interface Series {
  readonly labels: Readonly<Record<string, string>>;
  readonly buckets: number[];
  sum: number;
  count: number;
}

interface ExportedValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/**
 * `repkit_http_request_duration_seconds`, kept as plain counts per series and turned into
 * prom-client's values only when `/metrics` is read. prom-client's own histogram checks and
 * hashes the labels on every observation, even through a series bound with `labels()`: that
 * was a twentieth of the service's busy time on its cached-check path. The Registry reads
 * a metric through `getForPromString()`/`get()`, which this gives as its histograms do.
 */
export class RequestHistogram {
  readonly name = 'repkit_http_request_duration_seconds';
  readonly help = 'HTTP requests answered, by route (its pattern: bounded), method and status';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** Series by `route method status`: route patterns, methods Node parses, statuses (bounded). */
  readonly #series = new Map<string, Series>();

  constructor(private readonly bounds: readonly number[]) {}

  /** The series observed last, with its labels: a busy route answers alike request after request. */
  #last: { route: string; method: string; status: number; series: Series } | undefined;

  observe(route: string, method: string, status: number, seconds: number): void {
    const last = this.#last;
    const series =
      last !== undefined && last.route === route && last.method === method && last.status === status
        ? last.series
        : this.#seriesFor(route, method, status);
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    series.buckets[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  #seriesFor(route: string, method: string, status: number): Series {
    const key = `${route} ${method} ${status}`;
    let series = this.#series.get(key);
    if (!series) {
      const labels = { route, method, status: String(status) };
      series = {
        labels,
        buckets: new Array<number>(this.bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.#series.set(key, series);
    }
    this.#last = { route, method, status, series };
    return series;
  }

  /** The values as prom-client's histograms export them: cumulative buckets, `+Inf`, sum, count. */
  getForPromString(): {
    name: string;
    help: string;
    type: string;
    values: ExportedValue[];
    aggregator: string;
  } {
    const values: ExportedValue[] = [];
    for (const { labels, buckets, sum, count } of this.#series.values()) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += buckets[i]!;
        const le = i < this.bounds.length ? this.bounds[i]! : '+Inf';
        values.push({
          labels: { le, ...labels },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      }
      values.push({ labels: { ...labels }, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...labels }, value: count, metricName: `${this.name}_count` });
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    };
  }

  get(): ReturnType<RequestHistogram['getForPromString']> {
    return this.getForPromString();
  }

  reset(): void {
    this.#series.clear();
    this.#last = undefined;
  }

  /** As the Registry takes it (it reads only what this class has). */
  asMetric(): Metric {
    return this as unknown as Metric;
  }
}
