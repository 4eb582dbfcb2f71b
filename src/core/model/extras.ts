import type { ByteString } from '../text/bytes.ts';
import { IntColumn } from './columns.ts';
import { rangeTokenizer, type Directive } from '../tokens/tokenizer.ts';
import type { Source } from '../text/source.ts';

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
  /** Its line (1-based). */
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
/** Key start of lines kept untokenized (see `SkimmingHandler.other`). */
const UNTOKENIZED = -1;

/**
 * A file's extras. Most of them are never looked at (pages served as robots.txt make
 * thousands of `key: value` lines out of HTML and CSS), so the parse keeps where each key
 * and value is in the text, or just where the line is, and the strings are made the first
 * time extras are read.
 */
export class ExtraTable {
  /**
   * Per entry: line, group (-1 before any), key start and end, value start and end; or for
   * lines kept untokenized: first line, group, UNTOKENIZED, start and end, 0.
   */
  readonly #cells = new IntColumn();
  /** Values that are bytes although the text is not (a character split by the line cut). */
  #byteValues: Map<number, ByteString> | undefined;
  #extras: Extra[] | undefined;

  /** @param source what was tokenized: the offsets refer to its text. */
  constructor(private readonly source: Source) {}

  /** `base`: where the text the directive was read from starts in the source's. */
  add(d: Directive, group: number, base = 0): void {
    const cells = this.#cells;
    if (d.valueIsBytes) (this.#byteValues ??= new Map()).set(cells.length, d.value);
    cells.push(d.line);
    cells.push(group);
    cells.push(base + d.keyStart);
    cells.push(base + d.keyEnd);
    cells.push(base + d.valueStart);
    cells.push(base + d.valueEnd);
  }

  /** Lines kept untokenized, from `firstLine`: extras where they hold a key and a value. */
  addLines(firstLine: number, group: number, start: number, end: number): void {
    const cells = this.#cells;
    cells.push(firstLine);
    cells.push(group);
    cells.push(UNTOKENIZED);
    cells.push(start);
    cells.push(end);
    cells.push(0);
  }

  /** Gives back unused capacity once parsing is done. */
  seal(): void {
    this.#cells.seal();
  }

  /** The extras in file order, made on first use. */
  list(): readonly Extra[] {
    return (this.#extras ??= this.#materialize());
  }

  /**
   * The extras of `groups` (indexes in file order), in file order: read from their own rows
   * alone, so that one crawler's extras cost what its groups hold, not what the file does.
   */
  forGroups(groups: readonly number[]): Extra[] {
    const extras: Extra[] = [];
    this.scanGroups(groups, (extra) => void extras.push(extra));
    return extras;
  }

  /**
   * Visits the extras of `groups` in file order until `visit` answers true (a crawl-delay
   * lookup stops at the first valid line). Rows stand in file order, and so in group order:
   * each group's rows are found by a binary search.
   */
  scanGroups(groups: readonly number[], visit: (extra: Extra) => boolean | void): void {
    if (this.#extras) {
      const chosen = new Set(groups);
      for (const extra of this.#extras) {
        if (extra.group !== undefined && chosen.has(extra.group) && visit(extra)) return;
      }
      return;
    }
    const rows = this.#cells.length / CELLS;
    for (const group of [...groups].sort((a, b) => a - b)) {
      const from = this.#firstRowOf(group, rows);
      let to = from;
      while (to < rows && this.#cells.at(to * CELLS + 1) === group) to++;
      if (to > from && this.#read(from * CELLS, to * CELLS, visit)) return;
    }
  }

  /** The first row whose group is `group` or later. */
  #firstRowOf(group: number, rows: number): number {
    let low = 0;
    let high = rows;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#cells.at(middle * CELLS + 1) < group) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #materialize(): Extra[] {
    const extras: Extra[] = [];
    this.#read(0, this.#cells.length, (extra) => void extras.push(extra));
    return extras;
  }

  /**
   * The extras of the cells `[from, to)` handed to `visit` in order; true when `visit` asked
   * to stop.
   */
  #read(from: number, to: number, visit: (extra: Extra) => boolean | void): boolean {
    const cells = this.#cells;
    let group = -1;
    let stop = false;
    const keep = (d: Directive): void => {
      if (!stop) stop = visit(this.#extra(d.line, group, d.key, d.value, d.valueIsBytes)) === true;
    };
    const tokenizeLines = rangeTokenizer(this.source, { directive: keep });
    const text = this.source.text;
    for (let at = from; at < to && !stop; at += CELLS) {
      const line = cells.at(at);
      group = cells.at(at + 1);
      if (cells.at(at + 2) === UNTOKENIZED) {
        tokenizeLines(line, cells.at(at + 3), cells.at(at + 4));
      } else {
        const key = text.slice(cells.at(at + 2), cells.at(at + 3));
        const bytes = this.#byteValues?.get(at);
        const value = bytes ?? text.slice(cells.at(at + 4), cells.at(at + 5));
        stop = visit(this.#extra(line, group, key, value, bytes !== undefined)) === true;
      }
    }
    return stop;
  }

  #extra(
    line: number,
    group: number,
    rawKey: string,
    rawValue: string,
    valueIsBytes: boolean,
  ): Extra {
    const key = this.source.shown(rawKey).toLowerCase();
    return {
      key: COMMON_KEYS.get(key) ?? key,
      value: this.source.shown(rawValue, valueIsBytes),
      line,
      group: group < 0 ? undefined : group,
    };
  }
}

/** `Request-rate: 1/10s` → one request per ten seconds. */
export interface RequestRate {
  /** How many requests... */
  readonly requests: number;
  /** ...per this many seconds. */
  readonly seconds: number;
}

/** Yandex's `Clean-param: p1&p2 /path`: query parameters that do not change the page. */
export interface CleanParam {
  /** The parameter names. */
  readonly params: readonly string[];
  /** Path prefix the parameters apply to; undefined for the whole site. */
  readonly path: string | undefined;
  /** Its line (1-based). */
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
/**
 * Cloudflare's `Content-Signal: search=yes, ai-train=no, use=reference`: each `yes`/`no`
 * signal as a boolean, and `use` (how content may be used in answers: `immediate`,
 * `reference`, `full`) as its value.
 */
export function parseContentSignal(value: string): ContentSignals {
  const signals: ContentSignals = {};
  for (const entry of value.split(',')) {
    const [name, setting] = entry.split('=').map((part) => part.trim().toLowerCase());
    if (!name || setting === undefined) continue;
    if (name === 'use') {
      if (setting !== '') signals.use = setting;
    } else if (setting === 'yes' || setting === 'no') {
      signals[name] = setting === 'yes';
    }
  }
  return signals;
}

/** Content-Signal settings: `search`, `ai-input`, `ai-train`... as booleans, `use` as its value. */
export interface ContentSignals {
  /** The `use` setting's value, as written. */
  use?: string;
  [signal: string]: boolean | string | undefined;
}

/** Keys that mean crawl-delay in the wild. */
export const CRAWL_DELAY_KEYS = new Set(['crawl-delay', 'crawldelay', 'crawl delay']);
