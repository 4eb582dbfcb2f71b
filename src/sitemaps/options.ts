import type { CheckReason, RobotsClient } from '../fetch/index.ts';
import { InvalidOptionError } from '../fetch/index.ts';
import type { SitemapError } from './errors.ts';

/** One URL a sitemap lists, in document order. */
export interface SitemapEntry {
  /** The page's URL, as the sitemap writes it. */
  url: string;
  /** When the page last changed, as written (`lastmod`; `pubDate` in RSS, `updated` in Atom). */
  lastmod?: string;
  /** The sitemap that lists it (`bytes` for a body given). */
  sitemap: string;
  /** Its line in that sitemap (1-based). */
  line?: number;
  /**
   * May the crawler fetch it: its own robots.txt verdict, as the request will be sent (with a
   * client only).
   */
  allowed?: boolean;
  /** Why not, when it may not (`disallowed-by-rule`, `robots-txt-unreachable`...). */
  reason?: CheckReason;
}

/** Something skipped on the way, and why: an entry out of scope, a sitemap not followed. */
export interface SitemapProblem {
  /** The sitemap where it was found. */
  sitemap: string;
  /** Its line there, when it is an entry. */
  line?: number;
  /** What was skipped and why, in words. */
  message: string;
  /** With `continueOnError`: the error that ended one sitemap's read. */
  error?: SitemapError;
}

/** How `readSitemaps` reads. Every bound is an option; the defaults are sitemaps.org's. */
export interface ReadSitemapsOptions {
  /**
   * The client every fetch goes through (its cache, address guard, proxy, politeness,
   * User-Agent and signatures). Needed for a site or a sitemap URL; with bytes, only to read
   * the sitemaps an index lists and to give entries their verdicts.
   */
  client?: RobotsClient;
  /** The crawler whose robots.txt verdicts decide (default: the client's names). */
  agent?: string | readonly string[];
  /** Leave out entries the crawler may not fetch (default: hand them out with `allowed: false`). */
  onlyAllowed?: boolean;
  /**
   * Google's scope rules (default true): a sitemap's URLs under its own host and directory,
   * an index's sitemaps on its own host, unless the sitemap was named in the robots.txt of the
   * URL's host (cross-submission). Entries out of scope are reported, not handed out.
   */
  sameHost?: boolean;
  /**
   * Sites whose robots.txt named the sitemap given (their origins, or URLs of them): its URLs
   * may be theirs (cross-submission). A site given as the source sets this itself.
   */
  namedBy?: string | readonly string[];
  /**
   * Only entries changed at or after this time (entries without a date, or with one that does
   * not read, are kept). Dates are read the same in every time zone: one without a zone is
   * UTC; a `lastmod` of a year or a month alone is kept when any of it is at or after `since`.
   */
  since?: Date | string;
  /** How deep indexes may nest below the first sitemap. @defaultValue 3 */
  maxDepth?: number;
  /** Sitemaps read in all. @defaultValue 1,000 */
  maxSitemaps?: number;
  /** Entries read in all. @defaultValue 10,000,000 */
  maxEntries?: number;
  /** URLs per sitemap file. @defaultValue 50,000 (sitemaps.org) */
  maxUrlsPerFile?: number;
  /** Sitemaps per index file. @defaultValue 50,000 (sitemaps.org) */
  maxSitemapsPerIndex?: number;
  /** Bytes per file, counted decompressed (and compressed, as downloaded). @defaultValue 50 MiB */
  maxFileBytes?: number;
  /** Time for one file's fetch, body and reading included. @defaultValue 120 s */
  timeoutMs?: number;
  /**
   * Go on to the next sitemap when one cannot be read (it is reported to `onProblem`),
   * instead of ending the read with its `SitemapError`. @defaultValue false
   */
  continueOnError?: boolean;
  /** Told of everything skipped. */
  onProblem?: (problem: SitemapProblem) => void;
}

/** Every bound of a read, as `SITEMAP_DEFAULTS` gives them. */
export type SitemapBounds = Required<
  Pick<
    ReadSitemapsOptions,
    | 'maxDepth'
    | 'maxSitemaps'
    | 'maxEntries'
    | 'maxUrlsPerFile'
    | 'maxSitemapsPerIndex'
    | 'maxFileBytes'
    | 'timeoutMs'
  >
>;

/** sitemaps.org's limits per file, and repkit's for a whole read: the bounds `readSitemaps` keeps unless told otherwise. */
export const SITEMAP_DEFAULTS: Readonly<SitemapBounds> = {
  maxDepth: 3,
  maxSitemaps: 1_000,
  maxEntries: 10_000_000,
  maxUrlsPerFile: 50_000,
  maxSitemapsPerIndex: 50_000,
  maxFileBytes: 50 * 1024 * 1024,
  timeoutMs: 120_000,
};

/** The bounds asked for, checked. */
export function boundsOf(options: ReadSitemapsOptions): SitemapBounds {
  const bounds = { ...SITEMAP_DEFAULTS };
  for (const key of Object.keys(bounds) as (keyof SitemapBounds)[]) {
    const value = options[key];
    if (value === undefined) continue;
    const least = key === 'maxDepth' ? 0 : 1;
    if (!Number.isInteger(value) || value < least) {
      throw new InvalidOptionError(key, `must be an integer of at least ${least}`);
    }
    bounds[key] = value;
  }
  return bounds;
}

/** `since` as a time, checked: the start of a date given coarsely (`2026-11` is its first day). */
export function sinceOf(options: ReadSitemapsOptions): number | undefined {
  if (options.since === undefined) return undefined;
  const at =
    typeof options.since === 'string'
      ? timeOf(options.since, 'start')
      : new Date(options.since).getTime();
  if (Number.isNaN(at)) throw new InvalidOptionError('since', 'is not a date');
  return at;
}

/**
 * A W3C date (`lastmod`, `since`) or an RSS date as a time, NaN for none. The same wherever
 * it runs: a date-time without a zone is UTC (not the machine's zone), and a year or a month
 * alone stands for its first or last moment (`side`), so that a page dated `2026` is kept by
 * `since: '2026-11-01'`: it may have changed then.
 */
export function timeOf(text: string, side: 'start' | 'end'): number {
  const date = text.trim();
  const coarse = /^(\d{4})(?:-(\d{2}))?$/.exec(date);
  if (coarse) {
    const year = Number(coarse[1]);
    const month = coarse[2] === undefined ? undefined : Number(coarse[2]) - 1;
    if (month !== undefined && (month < 0 || month > 11)) return Number.NaN;
    if (side === 'start') return Date.UTC(year, month ?? 0, 1);
    return month === undefined ? Date.UTC(year + 1, 0, 1) - 1 : Date.UTC(year, month + 1, 1) - 1;
  }
  const zoneless = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/.test(date);
  return new Date(zoneless ? `${date}Z` : date).getTime();
}
