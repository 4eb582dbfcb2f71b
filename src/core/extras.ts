/**
 * Lines Google ignores but other crawlers read (crawl-delay, request-rate, host,
 * clean-param, content-signal...), kept with their line and group and parsed into types.
 */

/** A line whose key is none of user-agent, allow, disallow or sitemap. */
export interface Extra {
  /** The key, lower-cased, as written (`crawl-delay`, `host`, `noindex`...). */
  readonly key: string;
  /** The value as written (comment and surrounding whitespace removed). */
  readonly value: string;
  readonly line: number;
  /** Index in `RobotsTxt.groups` of the group the line stands in; undefined before any. */
  readonly group: number | undefined;
}

/**
 * A file's extras, column by column; `Extra` objects are made only when asked for (most
 * programs never look at most of them).
 */
export class ExtraTable {
  keys: string[] = [];
  values: string[] = [];
  lines: number[] = [];
  /** Group index, or -1 for a line before any group. */
  groups: number[] = [];

  add(key: string, value: string, line: number, group: number): void {
    this.keys.push(key);
    this.values.push(value);
    this.lines.push(line);
    this.groups.push(group);
  }

  get length(): number {
    return this.keys.length;
  }

  at(i: number): Extra {
    const group = this.groups[i]!;
    return {
      key: this.keys[i]!,
      value: this.values[i]!,
      line: this.lines[i]!,
      group: group < 0 ? undefined : group,
    };
  }

  /** Copies the columns to exact-size arrays once parsing is done. */
  seal(): void {
    this.keys = this.keys.slice();
    this.values = this.values.slice();
    this.lines = this.lines.slice();
    this.groups = this.groups.slice();
  }
}

/** `Request-rate: 1/10s` → one request per ten seconds. */
export interface RequestRate {
  readonly requests: number;
  readonly seconds: number;
}

/** Yandex's `Clean-param: p1&p2 /path`: query parameters that do not change the page. */
export interface CleanParam {
  readonly params: readonly string[];
  /** Path prefix the parameters apply to; undefined for the whole site. */
  readonly path: string | undefined;
  readonly line: number;
}

const NUMBER = /^\d+(?:\.\d+)?$/;

/** Seconds from a crawl-delay value, or undefined when it is not a non-negative number. */
export function parseCrawlDelay(value: string): number | undefined {
  return NUMBER.test(value) ? Number(value) : undefined;
}

const RATE = /^(\d+)\s*\/\s*(\d+)\s*([smhd]?)$/i;
const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

/** `n/m[smhd]` (as Yandex and Seznam document it), or undefined. */
export function parseRequestRate(value: string): RequestRate | undefined {
  const match = RATE.exec(value);
  if (!match) return undefined;
  const requests = Number(match[1]);
  const seconds = Number(match[2]) * UNIT_SECONDS[match[3]!.toLowerCase()]!;
  return requests > 0 && seconds > 0 ? { requests, seconds } : undefined;
}

export function parseCleanParam(value: string, line: number): CleanParam | undefined {
  const [params, path] = value.split(/\s+/, 2);
  if (!params) return undefined;
  return { params: params.split('&').filter((p) => p.length > 0), path, line };
}

/**
 * Content-Signal (contentsignals.org): `search=yes, ai-train=no` → `{ search: true,
 * 'ai-train': false }`. Entries that are not `name=yes|no` are left out.
 */
export function parseContentSignal(value: string): Record<string, boolean> {
  const signals: Record<string, boolean> = {};
  for (const entry of value.split(',')) {
    const [name, setting] = entry.split('=').map((part) => part.trim().toLowerCase());
    if (name && (setting === 'yes' || setting === 'no')) signals[name] = setting === 'yes';
  }
  return signals;
}

/** Keys that mean crawl-delay in the wild. */
export const CRAWL_DELAY_KEYS = new Set(['crawl-delay', 'crawldelay', 'crawl delay']);
