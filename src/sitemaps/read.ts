/**
 * `readSitemaps`: a site's sitemaps read as a crawler must read the open web's. Every file is
 * fetched through the crawler's `RobotsClient` after its own robots.txt lets the crawler fetch
 * it, streamed (decompressed as it arrives, tokenized as it is decompressed, entries handed out
 * as they are read), and bounded per file and per read; indexes are followed depth first, each
 * sitemap once.
 */
import {
  InvalidOptionError,
  InvalidUrlError,
  type CheckResult,
  type RobotsClient,
  type RobotsState,
} from '../fetch/index.ts';
import { clientSeam, httpUrl } from '../fetch/internal.ts';
import { decoded, fileBody } from './download.ts';
import { isSitemapError, SitemapError } from './errors.ts';
import { SitemapFile, type FileItem } from './formats.ts';
import {
  boundsOf,
  sinceOf,
  timeOf,
  type SitemapBounds,
  type ReadSitemapsOptions,
  type SitemapEntry,
  type SitemapProblem,
} from './options.ts';
import { inScope, namedSitemaps, sameSite, scopeOf, type SitemapScope } from './scope.ts';

/** Where a read starts: a site (a URL whose path is `/`), a sitemap's URL, or a body already fetched. */
export type SitemapSource = string | URL | Uint8Array;

/** A sitemap to read: where, how deep below the first, and the hosts whose robots.txt named it. */
interface Pending {
  url: string;
  depth: number;
  namedBy: ReadonlySet<string>;
  bytes?: Uint8Array;
}

/**
 * An entry kept from a batch, with its URL parsed and that URL's origin (read once: the
 * getter makes a new string each time).
 */
interface Taken {
  entry: SitemapEntry;
  target: URL;
  origin: string;
}

/** What a body given is called in entries and errors. */
const BYTES = 'bytes';
const NONE: ReadonlySet<string> = new Set();

/**
 * The entries of a site's sitemaps, of one sitemap (following an index's sitemaps), or of a
 * body already fetched, in document order, as they are read. Bounded per file and per read
 * (see `ReadSitemapsOptions`): a read that reaches a bound, or a file that cannot be read,
 * ends with a `SitemapError` after the entries read before it.
 *
 * @throws InvalidUrlError for a source that is no http(s) URL; InvalidOptionError for a bound
 *   that is not a positive integer, or a URL source without a client.
 * @example
 * ```ts
 * import { RobotsClient } from 'repkit/fetch';
 * import { readSitemaps } from 'repkit/sitemaps';
 *
 * const client = new RobotsClient({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 * for await (const entry of readSitemaps('https://example.com/', { client, onlyAllowed: true })) {
 *   console.log(entry.url, entry.lastmod);
 * }
 * ```
 */
export async function* readSitemaps(
  source: SitemapSource,
  options: ReadSitemapsOptions = {},
): AsyncGenerator<SitemapEntry, void, undefined> {
  const reader = new SitemapReader(options);
  // Inside, entries travel in batches (one per chunk read): a generator level per entry costs.
  for (const pending of await reader.start(source)) {
    for await (const batch of reader.sitemap(pending)) yield* batch;
  }
}

class SitemapReader {
  readonly #options: ReadSitemapsOptions;
  readonly #client: RobotsClient | undefined;
  readonly #bounds: SitemapBounds;
  readonly #since: number | undefined;
  readonly #seen = new Set<string>();
  /**
   * The robots.txt states entries are judged by, per origin, for the file being read (asked
   * of the client once per origin and file, not once per entry).
   */
  readonly #states = new Map<string, RobotsState>();
  #names: { agents: readonly string[]; notes: readonly string[] } | undefined;
  #sitemaps = 0;
  #entries = 0;

  constructor(options: ReadSitemapsOptions) {
    this.#options = options;
    this.#client = options.client;
    this.#bounds = boundsOf(options);
    this.#since = sinceOf(options);
  }

  /** The first sitemaps: a site's robots.txt `Sitemap:` lines (or its `/sitemap.xml`), or the one given. */
  async start(source: SitemapSource): Promise<Pending[]> {
    if (source instanceof Uint8Array)
      return [{ url: BYTES, depth: 0, namedBy: NONE, bytes: source }];
    const url = sourceUrl(String(source));
    const client = this.#client;
    if (!client)
      throw new InvalidOptionError('client', 'reading a site or a sitemap URL needs a client');
    if (url.pathname !== '/' || url.search !== '') {
      return [{ url: url.href, depth: 0, namedBy: this.#namedBy() }];
    }
    const state = await client.robotsFor(url.href);
    const { named, refused } = namedSitemaps(state.robots?.sitemaps ?? []);
    for (const value of refused) {
      this.#problem({
        sitemap: `${url.origin}/robots.txt`,
        message: `Sitemap: ${value}: not an absolute http(s) URL (Google reads only those); not read`,
      });
    }
    if (named.length === 0) return [{ url: `${url.origin}/sitemap.xml`, depth: 0, namedBy: NONE }];
    const namedBy = new Set([url.origin]);
    return named.map((sitemap) => ({ url: sitemap, depth: 0, namedBy }));
  }

  /** One sitemap's entries, then those of the sitemaps it lists; its failure as the options say. */
  async *sitemap(pending: Pending): AsyncGenerator<SitemapEntry[], void, undefined> {
    if (this.#seen.has(pending.url)) {
      this.#problem({
        sitemap: pending.url,
        message: 'read already (an index cycle): not read again',
      });
      return;
    }
    this.#seen.add(pending.url);
    if (++this.#sitemaps > this.#bounds.maxSitemaps) {
      throw new SitemapError(
        'read-limit',
        pending.url,
        `more than ${this.#bounds.maxSitemaps} sitemaps in this read`,
      );
    }
    let listed: FileItem[];
    try {
      listed = yield* this.#file(pending);
    } catch (error) {
      if (
        !isSitemapError(error) ||
        error.reason === 'read-limit' ||
        !this.#options.continueOnError
      ) {
        throw error;
      }
      this.#problem({ sitemap: pending.url, message: error.message, error });
      return;
    }
    if (listed.length === 0) return;
    if (pending.depth >= this.#bounds.maxDepth) {
      this.#problem({
        sitemap: pending.url,
        message: `an index ${pending.depth} below the first: its ${listed.length} sitemaps are not read (maxDepth ${this.#bounds.maxDepth})`,
      });
      return;
    }
    for (const child of listed) {
      const url = this.#childUrl(child, pending);
      if (url !== undefined) {
        yield* this.sitemap({ url, depth: pending.depth + 1, namedBy: pending.namedBy });
      }
    }
  }

  /** A sitemap an index lists, when it is to be read. */
  #childUrl(child: FileItem, index: Pending): string | undefined {
    const where = { sitemap: index.url, line: child.line };
    const target = httpUrl(child.loc);
    if (target === undefined) {
      this.#problem({ ...where, message: `${child.loc}: not an http(s) URL; not read` });
      return undefined;
    }
    const scope = this.#scopeOf(index);
    if (scope && !sameSite(target, scope)) {
      this.#problem({ ...where, message: `${target.href}: a sitemap of another host; not read` });
      return undefined;
    }
    return this.#before(child.lastmod) ? undefined : target.href;
  }

  /** The scope a sitemap's entries are held to, when they are (`sameHost`, a URL given). */
  #scopeOf(pending: Pending): SitemapScope | undefined {
    return this.#scoped() && pending.url !== BYTES
      ? scopeOf(pending.url, pending.namedBy)
      : undefined;
  }

  /** One file: its URL entries handed out as read, the sitemaps it lists (an index) returned. */
  async *#file(pending: Pending): AsyncGenerator<SitemapEntry[], FileItem[], undefined> {
    const file = new SitemapFile(pending.url, {
      maxBytes: this.#bounds.maxFileBytes,
      maxUrls: this.#bounds.maxUrlsPerFile,
      maxSitemaps: this.#bounds.maxSitemapsPerIndex,
    });
    const listed: FileItem[] = [];
    const scope = this.#scopeOf(pending);
    this.#states.clear();
    try {
      for await (const items of this.#items(pending, file)) {
        // Taken first (scope, date), so that only the origins of entries kept are asked for;
        // a bound reached ends the read after the entries taken before it.
        const taken: Taken[] = [];
        let stop: unknown;
        for (const item of items) {
          if (item.kind === 'sitemap') listed.push(item);
          else {
            const target = httpUrl(item.loc);
            const origin = target?.origin ?? '';
            try {
              const entry = this.#entry(item, target, origin, pending, scope);
              if (entry) taken.push({ entry, target: target!, origin });
            } catch (error) {
              stop = error;
              break;
            }
          }
        }
        await this.#loadStates(taken);
        const entries = this.#judged(taken);
        if (entries.length > 0) yield entries;
        if (stop !== undefined) throw stop;
      }
    } finally {
      for (const note of file.notes) this.#problem({ sitemap: pending.url, ...note });
    }
    return listed;
  }

  /** The file's entries, batch by batch, as its bytes arrive. */
  async *#items(pending: Pending, file: SitemapFile): AsyncGenerator<FileItem[], void, undefined> {
    const { body, outcome, stop } = await fileBody(pending, this.#client, {
      agent: this.#options.agent,
      maxBytes: this.#bounds.maxFileBytes,
      timeoutMs: this.#bounds.timeoutMs,
    });
    try {
      for await (const chunk of decoded(body, pending.url)) yield file.write(chunk);
      const fetched = await outcome;
      if (fetched) {
        if (fetched.outcome !== 'ok') {
          throw new SitemapError(
            'fetch-failed',
            pending.url,
            fetched.error ?? `HTTP ${fetched.status}`,
            { errorCode: fetched.errorCode },
          );
        }
        if (fetched.truncated) {
          throw new SitemapError(
            'file-too-large',
            pending.url,
            `more than ${this.#bounds.maxFileBytes} bytes downloaded`,
          );
        }
      }
      yield file.end();
    } finally {
      stop();
    }
  }

  /** A URL entry as it is kept, or undefined when it is left out (reported if out of scope). */
  #entry(
    item: FileItem,
    target: URL | undefined,
    origin: string,
    pending: Pending,
    scope: SitemapScope | undefined,
  ): SitemapEntry | undefined {
    if (++this.#entries > this.#bounds.maxEntries) {
      throw new SitemapError(
        'read-limit',
        pending.url,
        `more than ${this.#bounds.maxEntries} entries in this read`,
      );
    }
    const where = { sitemap: pending.url, line: item.line };
    if (target === undefined) {
      this.#problem({ ...where, message: `${item.loc}: not an http(s) URL; skipped` });
      return undefined;
    }
    const url = target.href;
    if (scope && !inScope(target, origin, scope)) {
      this.#problem({
        ...where,
        message: `${url}: outside the sitemap's host and directory; skipped`,
      });
      return undefined;
    }
    if (this.#before(item.lastmod)) return undefined;
    return {
      url,
      ...(item.lastmod ? { lastmod: item.lastmod } : {}),
      sitemap: pending.url,
      line: item.line,
    };
  }

  /** Entries with their verdicts (with a client), those disallowed left out with `onlyAllowed`. */
  #judged(taken: readonly Taken[]): SitemapEntry[] {
    const entries: SitemapEntry[] = [];
    for (const { entry, target, origin } of taken) {
      const verdict = this.#verdict(target, origin);
      // The entry was made for this batch and is handed out once: given its verdict where
      // it stands (a copy of each was a tenth of a large sitemap's read).
      if (!verdict) entries.push(entry);
      else if (verdict.allowed) {
        entry.allowed = true;
        entries.push(entry);
      } else if (!this.#options.onlyAllowed) {
        entry.allowed = false;
        entry.reason = verdict.reason;
        entries.push(entry);
      }
    }
    return entries;
  }

  /** The robots.txt states of a batch's origins not yet at hand, asked of the client once each. */
  async #loadStates(taken: readonly Taken[]): Promise<void> {
    const client = this.#client;
    if (!client) return;
    for (const { target, origin } of taken) {
      if (!this.#states.has(origin)) {
        this.#states.set(origin, await client.robotsFor(target.href));
      }
    }
  }

  /** The crawler's verdict for an entry, as `check` gives it (none without a client). */
  #verdict(target: URL, origin: string): CheckResult | undefined {
    const client = this.#client;
    const state = this.#states.get(origin);
    if (!client || !state) return undefined;
    const seam = clientSeam(client);
    this.#names ??= seam.names(this.#options.agent);
    return seam.verdict(target.href, state, {
      agents: this.#names.agents,
      agentNotes: this.#names.notes,
    });
  }

  /** The origins of `namedBy`. @throws InvalidOptionError */
  #namedBy(): ReadonlySet<string> {
    const given = this.#options.namedBy;
    if (given === undefined) return NONE;
    return new Set(
      [given].flat().map((site) => {
        try {
          return new URL(site).origin;
        } catch {
          throw new InvalidOptionError('namedBy', `${JSON.stringify(site)} is not a URL`);
        }
      }),
    );
  }

  #scoped(): boolean {
    return this.#options.sameHost !== false;
  }

  /** The entry changed before `since` (one without a date, or with none that reads, is kept). */
  #before(lastmod: string | undefined): boolean {
    if (this.#since === undefined || lastmod === undefined) return false;
    const at = timeOf(lastmod, 'end');
    return !Number.isNaN(at) && at < this.#since;
  }

  #problem(problem: SitemapProblem): void {
    this.#options.onProblem?.(problem);
  }
}

/** `given` as an absolute http(s) URL. @throws InvalidUrlError */
function sourceUrl(given: string): URL {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new InvalidUrlError(given, 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidUrlError(given, 'sitemaps are read over http and https only');
  }
  return url;
}
