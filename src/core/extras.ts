import { displayText, type ByteString } from './bytes.ts';
import type { Directive } from './tokenizer.ts';

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

/** Keys seen often enough to share one string instead of a copy per file. */
const COMMON_KEYS = new Map(
  [
    'crawl-delay',
    'host',
    'clean-param',
    'request-rate',
    'visit-time',
    'noindex',
    'content-signal',
  ].map((k) => [k, k]),
);

const CELLS = 6;

/**
 * A file's extras. Most of them are never looked at (pages served as robots.txt make
 * thousands of `key: value` lines out of HTML and CSS), so the parse keeps where each key
 * and value is in the text, and the strings are made the first time extras are read.
 */
export class ExtraTable {
  /** Per extra: line, group (-1 before any), key start and end, value start and end. */
  #cells: number[] = [];
  /** Values that are bytes although the text is not (a character split by the line cut). */
  #byteValues: Map<number, ByteString> | undefined;
  #keys: string[] | undefined;
  #values: string[] | undefined;

  /**
   * @param source the tokenized text the offsets refer to.
   * @param display turns a slice of it into text as shown to people.
   */
  constructor(
    private readonly source: string,
    private readonly display: (text: string) => string,
  ) {}

  add(d: Directive, group: number): void {
    if (d.valueIsBytes) (this.#byteValues ??= new Map()).set(this.length, d.value);
    this.#cells.push(d.line, group, d.keyStart, d.keyEnd, d.valueStart, d.valueEnd);
  }

  get length(): number {
    return this.#cells.length / CELLS;
  }

  /** Index of the group extra `i` stands in, or -1 before any group. */
  group(i: number): number {
    return this.#cells[i * CELLS + 1]!;
  }

  at(i: number): Extra {
    if (!this.#keys) this.#materialize();
    const group = this.group(i);
    return {
      key: this.#keys![i]!,
      value: this.#values![i]!,
      line: this.#cells[i * CELLS]!,
      group: group < 0 ? undefined : group,
    };
  }

  /** Copies the cells to an exact-size array once parsing is done. */
  seal(): void {
    this.#cells = this.#cells.slice();
  }

  #materialize(): void {
    const keys: string[] = [];
    const values: string[] = [];
    const cells = this.#cells;
    for (let i = 0; i < this.length; i++) {
      const c = i * CELLS;
      const key = this.display(this.source.slice(cells[c + 2], cells[c + 3])).toLowerCase();
      keys.push(COMMON_KEYS.get(key) ?? key);
      const bytes = this.#byteValues?.get(i);
      values.push(
        bytes !== undefined
          ? displayText(bytes)
          : this.display(this.source.slice(cells[c + 4], cells[c + 5])),
      );
    }
    this.#keys = keys;
    this.#values = values;
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
