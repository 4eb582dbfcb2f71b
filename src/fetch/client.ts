import { MemoryStore, type CacheEntry, type CacheStore, type Lease } from '../cache/index.ts';
import { usedEntry } from '../cache/internal.ts';
import {
  DEFAULT_MAX_BYTES,
  parse,
  isValidProductToken,
  type Explanation,
  type ProfileName,
  type RobotsTxt,
} from '../core/index.ts';
import { parseTdmrep, type TdmrepFile } from '../core/tdmrep-entry.ts';
import { BoundedMap } from '../core/internal.ts';
import { ANY_ADDRESS } from './addresses.ts';
import { InvalidOptionError, InvalidUrlError, isRefusedAddressError } from './errors.ts';
import { HostResolver } from './resolver.ts';
import { agentsFor, verdictFromState, type CheckResult } from './verdict.ts';
import type { AgentMode } from './state.ts';
import { RobotsHttp, type FetchOutcome } from './http.ts';
import { Limiter } from './limiter.ts';
import { locate } from './location.ts';
import { entryFromFetch } from './entries.ts';
import { ParsedFiles, type HotEntry } from './parsed-files.ts';
import {
  positive,
  proxyFromEnvironment,
  readNames,
  type FetchReport,
  type RobotsClientOptions,
} from './options.ts';

export type { FetchReport, RobotsClientOptions } from './options.ts';
export type { RobotsState, TdmrepState } from './state.ts';
import type { RobotsState, TdmrepState } from './state.ts';
import { usageFor, type UsageAnswer } from './usage.ts';
import {
  DEFAULT_POLITENESS,
  backOffDelay,
  crawlDelayInterval,
  turnKeeper,
  type PolitenessPolicy,
  type Turn,
} from './politeness.ts';
import { DEFAULT_POLICY, type CachePolicy } from './policy.ts';

/** Bytes of a tdmrep.json read (real ones are a few hundred). */
const TDMREP_MAX_BYTES = 64 * 1024;
/** Parsed TDMRep files kept at hand: with the byte cap, a few MB at most. */
const TDMREP_PARSED = 256;
/** The response headers page rules are read from. */
const PAGE_RULE_HEADERS = [
  'x-robots-tag',
  'robots-tag',
  'content-usage',
  'tdm-reservation',
  'tdm-policy',
] as const;

/** Page fetches in flight at once (two per origin), and how many may wait for a place. */
const PAGES_AT_ONCE = 16;
const PAGES_WAITING = 1_000;

/** A page fetch refused because too many wait: an error outcome, never a throw. */
function refusedPage(url: string): FetchOutcome {
  return {
    outcome: 'error',
    status: 0,
    headers: {},
    chain: [url],
    error: `more than ${PAGES_WAITING} page fetches are waiting; not fetched`,
  };
}

/** How long a fleet fetch lease lasts unless renewed (see `fleet.leaseTtlMs`). */
const DEFAULT_LEASE_TTL_MS = 5_000;
/** The longest wait between looks for another process's result. */
const MAX_POLL_MS = 1_000;

/**
 * Fetches, caches and applies robots.txt the way Google does, one origin at a time:
 *
 * ```ts
 * const client = new RobotsClient({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 * const { allowed } = await client.check('https://example.com/some/page?x=1');
 * await client.close();
 * ```
 */
export class RobotsClient {
  readonly userAgent: string;
  /** The names robots.txt groups are matched by (product tokens). */
  readonly agents: readonly string[];
  /** How the names given were read, where they were not product tokens already. */
  readonly agentNotes: readonly string[];
  /** How fetched files are interpreted, and how many of their bytes are read. */
  readonly profile: ProfileName;
  readonly maxBytes: number;
  /** How several names are read: ordered fallbacks or one merged crawler. */
  readonly agentMode: AgentMode;
  private readonly store: CacheStore;
  private readonly policy: CachePolicy;
  private readonly now: () => number;
  private readonly http: RobotsHttp;
  private readonly httpOptions: {
    userAgent: string;
    maxBytes: number;
    maxRedirects: number;
    timeoutMs: number;
  };
  private readonly inflight = new Map<string, Promise<CacheEntry>>();
  /** Page fetches: one per URL asked at once, and bounded (see `fetchPage`). */
  private readonly pagesInFlight = new Map<string, Promise<FetchOutcome>>();
  private readonly pages = new Limiter(PAGES_AT_ONCE, 2, PAGES_WAITING);
  /** Per origin, the entry in use and its parsed file (bounded, least recently used out). */
  private readonly hot: ParsedFiles;
  private readonly resolver: HostResolver;
  private readonly onStoreError: (error: unknown, operation: 'get' | 'set') => void;
  private readonly fleet: { leaseTtlMs: number; waitMs: number; pollMs: number };
  private readonly onFetch: ((fetch: FetchReport) => void) | undefined;
  private readonly politeness: PolitenessPolicy;
  /** Parsed TDMRep files at hand, by store key (at most `TDMREP_PARSED`). */
  private readonly tdmrepHot = new BoundedMap<string, { entry: CacheEntry; file?: TdmrepFile }>({
    maxEntries: TDMREP_PARSED,
  });
  private readonly turns: ReturnType<typeof turnKeeper>;

  constructor(options: RobotsClientOptions) {
    const userAgent = String(options?.userAgent ?? '').trim();
    if (userAgent === '') throw new InvalidOptionError('userAgent', 'must name the crawler');
    const { agents, notes } = readNames(options.agent === undefined ? userAgent : options.agent);
    if (agents.length === 0 || agents.some((a) => !isValidProductToken(a))) {
      throw new InvalidOptionError(
        'agent',
        'give a crawler name (the User-Agent has no product token)',
      );
    }
    this.userAgent = userAgent;
    this.agents = agents;
    this.agentNotes = notes;
    this.store = options.store ?? new MemoryStore({ now: options.now });
    this.profile = options.profile ?? 'google';
    this.policy = { ...DEFAULT_POLICY, ...options.cache };
    this.now = options.now ?? Date.now;
    this.hot = new ParsedFiles(
      positive('maxParsed', options.maxParsed ?? 1_000),
      positive('maxParsedBytes', options.maxParsedBytes ?? 64 * 1024 * 1024),
    );
    this.onStoreError =
      options.onStoreError ??
      ((error, operation) =>
        console.warn(`repkit: cache ${operation} failed, going on without it: ${String(error)}`));
    const connectTimeoutMs = positive('connectTimeoutMs', options.connectTimeoutMs ?? 5_000);
    this.httpOptions = {
      userAgent,
      maxBytes: positive('maxBytes', options.maxBytes ?? DEFAULT_MAX_BYTES),
      maxRedirects: positive('maxRedirects', options.maxRedirects ?? 5, true),
      timeoutMs: positive('timeoutMs', options.timeoutMs ?? 15_000),
    };
    if (options.proxy !== undefined && options.proxy !== 'env') {
      throw new InvalidOptionError('proxy', `must be 'env', got ${String(options.proxy)}`);
    }
    if (options.proxy && options.dispatcher) {
      throw new InvalidOptionError('proxy', 'give either a dispatcher or proxy: "env", not both');
    }
    if (options.dispatcher && options.allowAddress) {
      throw new InvalidOptionError(
        'allowAddress',
        "the address guard cannot see a dispatcher's connections; use proxy: 'env' for a proxy under the guard",
      );
    }
    const agentMode = options.agentMode ?? 'fallback';
    if (agentMode !== 'fallback' && agentMode !== 'merged') {
      throw new InvalidOptionError(
        'agentMode',
        `must be 'fallback' or 'merged', got ${String(agentMode)}`,
      );
    }
    this.agentMode = agentMode;
    const allowAddress = options.allowAddress ?? ANY_ADDRESS;
    this.resolver = new HostResolver({
      allowAddress,
      ...(options.lookup ? { lookup: options.lookup } : {}),
      ...(options.dns?.maxConcurrent ? { maxConcurrent: options.dns.maxConcurrent } : {}),
      timeoutMs: options.dns?.timeoutMs ?? Math.min(5_000, this.httpOptions.timeoutMs),
      ...(options.dns?.ttlMs !== undefined ? { ttlMs: options.dns.ttlMs } : {}),
    });
    this.http = new RobotsHttp({
      connectTimeoutMs: Math.min(connectTimeoutMs, this.httpOptions.timeoutMs),
      resolver: this.resolver,
      allowAddress,
      dispatcher: options.dispatcher,
      ...(options.proxy === 'env'
        ? {
            proxy: proxyFromEnvironment,
            ownsDispatcher: true,
            guardProxied: options.allowAddress !== undefined,
          }
        : {}),
    });
    this.maxBytes = this.httpOptions.maxBytes;
    this.onFetch = options.onFetch;
    this.politeness = { ...DEFAULT_POLITENESS, ...options.politeness };
    this.turns = turnKeeper(this.store);
    this.fleet = {
      leaseTtlMs: options.fleet?.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
      waitMs: options.fleet?.waitMs ?? this.httpOptions.timeoutMs + 5_000,
      pollMs: options.fleet?.pollMs ?? 50,
    };
  }

  /**
   * Whether the crawler (or `options.agent`) may fetch `url`. Fetches the origin's robots.txt when no fresh copy is
   * cached (one fetch per origin however many callers ask at once). Throws `InvalidUrlError`
   * for a URL that does not parse or has no robots.txt; fetch failures are verdicts, not errors.
   */
  async check(
    url: string,
    options: { agent?: string | readonly string[] } = {},
  ): Promise<CheckResult> {
    const state = await this.robotsFor(url);
    const { agents, notes } = this.names(options.agent);
    return this.verdict(url, state, agents, undefined, notes);
  }

  /**
   * The names groups are matched by for `agent` (the client's own when undefined), read as
   * robots.txt names crawlers (`Googlebot/2.1` → `Googlebot`), and notes where that changed
   * a name.
   */
  names(agent?: string | readonly string[]): {
    agents: readonly string[];
    notes: readonly string[];
  } {
    return agent === undefined ? { agents: this.agents, notes: this.agentNotes } : readNames(agent);
  }

  /** The robots.txt that governs `url`, fetched or from the cache. */
  async robotsFor(url: string): Promise<RobotsState> {
    const location = locate(url);
    if (location.origin.startsWith('ftp:')) {
      throw new InvalidUrlError(
        url,
        'fetching robots.txt over ftp is not supported (robotsUrl() gives its location)',
      );
    }
    const origin = location.origin;
    // The entry in use, kept with its parsed file until it expires: most checks touch neither
    // the store nor the parser.
    const hot = this.hot.get(origin);
    if (hot && this.isFresh(hot)) {
      this.hot.touch(origin);
      return {
        location,
        entry: hot.entry,
        source: hot.stale ? 'stale' : 'cache',
        ...(hot.robots ? { robots: hot.robots } : {}),
      };
    }
    const cached = await this.storeGet(origin);
    let entry: CacheEntry;
    let fetched = false;
    if (cached && this.now() < cached.expiresAt && readsEnough(cached, this.maxBytes)) {
      entry = cached;
    } else {
      entry = await this.refresh(origin, location.robotsUrl, cached);
      fetched = true;
    }
    const used = usedEntry(entry);
    const stale = used !== entry;
    const source = stale ? 'stale' : fetched ? 'fetched' : 'cache';
    const robots = used.outcome === 'ok' ? this.parsedFor(hot, used) : undefined;
    this.hot.remember(origin, { entry, stale, ...(robots ? { robots } : {}) });
    return { location, entry, source, ...(robots ? { robots } : {}) };
  }

  /**
   * Throws `RefusedAddressError` when `url`'s host is, or resolves to, an address the
   * `allowAddress` filter refuses (and `InvalidUrlError` for a URL without a robots.txt).
   * An origin whose robots.txt is at hand needs no DNS; names are resolved through the
   * client's DNS cache, with its limits. A failing lookup is not an error here: the fetch
   * will report it as Google does.
   */
  async preflight(url: string): Promise<void> {
    const location = locate(url);
    const hot = this.hot.get(location.origin);
    if (hot && this.isFresh(hot)) return;
    try {
      await this.resolver.resolve(new URL(location.origin).hostname);
    } catch (error) {
      if (isRefusedAddressError(error)) throw error;
    }
  }

  /**
   * Politeness for `url`'s host, shared by every process on the store: `go` when the caller
   * may request it now (the turn is taken; the next comes a Crawl-delay later), else how long
   * to wait before asking again. The Crawl-delay is the file's for this client's names (at
   * most `politeness.maxCrawlDelayMs`); a pause from `backOff` holds every process off.
   */
  async turn(url: string): Promise<Turn> {
    const state = await this.robotsFor(url);
    const seconds = state.robots?.crawlDelay(this.agentsFor(state));
    const crawlDelayMs = crawlDelayInterval(seconds, this.politeness);
    const waitMs = await this.turns.takeTurn(state.location.origin, crawlDelayMs);
    return waitMs > 0 ? { kind: 'wait', waitMs, crawlDelayMs } : { kind: 'go', crawlDelayMs };
  }

  /**
   * Leaves `url`'s host alone for every process on the store, after it answered 429 or 503:
   * for its `Retry-After` (seconds or an HTTP date; default 1 minute, at most a day; see
   * `politeness`). Answers the pause in milliseconds.
   */
  async backOff(url: string, retryAfter?: string | number): Promise<number> {
    const { origin } = locate(url);
    const ms = backOffDelay(retryAfter, this.now(), this.politeness);
    await this.turns.holdOff(origin, ms);
    return ms;
  }

  /**
   * The TDMRep file of `url`'s origin (`/.well-known/tdmrep.json`, W3C TDMRep), fetched and
   * cached through the same store as robots.txt (same lifetimes, leases and error backoff),
   * read up to 64 KiB. `file` is undefined when the site has none (4xx) or it cannot be
   * reached; a body that is not a JSON array of rules gives a file with no rules and a problem.
   * A redirect is followed only to a URL its own robots.txt lets the crawler (or
   * `options.agent`) fetch; one it does not is not requested, and the site has no file.
   */
  async tdmrepFor(
    url: string,
    options: { agent?: string | readonly string[] } = {},
  ): Promise<TdmrepState> {
    const { origin } = locate(url);
    const key = `${origin}#tdmrep`;
    const tdmrepUrl = `${origin}/.well-known/tdmrep.json`;
    const hot = this.tdmrepHot.get(key);
    if (hot && this.now() < hot.entry.expiresAt) {
      return { url: tdmrepUrl, entry: hot.entry, ...(hot.file ? { file: hot.file } : {}) };
    }
    const cached = await this.storeGet(key);
    const entry =
      cached && this.now() < cached.expiresAt && readsEnough(cached, TDMREP_MAX_BYTES)
        ? cached
        : await this.refresh(
            key,
            tdmrepUrl,
            cached,
            TDMREP_MAX_BYTES,
            this.hopCheck(options.agent),
          );
    const used = usedEntry(entry);
    const file =
      used.outcome === 'ok'
        ? parseTdmrep(new TextDecoder().decode(Buffer.from(used.body ?? '', 'base64')))
        : undefined;
    this.tdmrepHot.set(key, { entry, ...(file ? { file } : {}) });
    return { url: tdmrepUrl, entry, ...(file ? { file } : {}) };
  }

  /**
   * A page, for its rules: fetched through the client's own connections (so `allowAddress`
   * holds on every hop), its status, the headers that carry rules (`x-robots-tag`,
   * `robots-tag`, `content-usage`, `tdm-reservation`, `tdm-policy`) and up to `maxBytes`
   * (default 1 MiB, what page rules read of a head) of its body. Not cached. Never throws.
   * Each redirect target is requested only when its own robots.txt lets the crawler (or
   * `options.agent`) fetch it; otherwise the fetch ends with `refusedHop`. The first URL is
   * the caller's to check.
   */
  fetchPage(
    url: string,
    maxBytes = 1024 * 1024,
    options: { agent?: string | readonly string[] } = {},
  ): Promise<FetchOutcome> {
    // One fetch for callers asking the same at once; at most PAGES_AT_ONCE in flight, two
    // per origin, PAGES_WAITING waiting: bodies in memory stay under 16 × maxBytes.
    const agentKey = options.agent === undefined ? '' : [options.agent].flat().join('\n');
    const key = `${maxBytes} ${agentKey} ${url}`;
    const joined = this.pagesInFlight.get(key);
    if (joined) return joined;
    let origin = '';
    try {
      origin = new URL(url).origin;
    } catch {
      // not a URL: the fetch says so
    }
    const pending = this.pages
      .run(
        origin,
        () =>
          this.http.fetch(url, {
            ...this.httpOptions,
            maxBytes,
            accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
            keepHeaders: PAGE_RULE_HEADERS,
            beforeHop: this.hopCheck(options.agent),
          }),
        () => refusedPage(url),
      )
      .finally(() => this.pagesInFlight.delete(key));
    this.pagesInFlight.set(key, pending);
    return pending;
  }

  /**
   * Whether a redirect to `url` may be followed: undefined when its own origin's robots.txt
   * (fetched through the same cache) lets the crawler (or `options.agent`) fetch it as it will
   * be requested; otherwise why not, and whether asking again later may change the answer
   * (`retryLater`: the robots.txt cannot be read now). Every redirect repkit follows or
   * guards is decided here.
   */
  async refuseRedirect(
    url: string,
    options: { agent?: string | readonly string[] } = {},
  ): Promise<{ reason: string; retryLater: boolean } | undefined> {
    let result: CheckResult;
    try {
      result = await this.check(url, options);
    } catch (error) {
      return { reason: error instanceof Error ? error.message : String(error), retryLater: false };
    }
    if (result.allowed) return undefined;
    return result.reason === 'robots-txt-unreachable'
      ? {
          reason: `its robots.txt (${result.robotsUrl}) cannot be read now${result.error ? ` (${result.error})` : ''}`,
          retryLater: true,
        }
      : {
          reason: `its robots.txt disallows it${result.line ? ` (${result.robotsUrl} line ${result.line})` : ''}`,
          retryLater: false,
        };
  }

  /** `beforeHop` for the client's own fetches: a refused redirect's reason, in words. */
  private hopCheck(
    agent?: string | readonly string[],
  ): (url: string) => Promise<string | undefined> {
    return async (url) => {
      const refused = await this.refuseRedirect(url, agent === undefined ? {} : { agent });
      return refused && `redirect to ${url} not followed: ${refused.reason}`;
    };
  }

  /**
   * One explained answer for the crawler and `url`: may it fetch, index, use for AI training,
   * use for search, and is text-and-data mining reserved (TDMRep), each with the robots.txt
   * line, header, meta tag or tdmrep.json rule that said so. The page and its origin's
   * tdmrep.json are fetched (not cached: the page) only where robots.txt allows them.
   */
  usage(url: string, options: { agent?: string | readonly string[] } = {}): Promise<UsageAnswer> {
    return usageFor(this, url, options.agent);
  }

  /** Forgets the cached result for `url`'s origin. */
  async forget(url: string): Promise<void> {
    const { origin } = locate(url);
    this.hot.drop(origin);
    await this.store.delete(origin);
  }

  /** Closes connections; the client must not be used afterwards. */
  async close(): Promise<void> {
    await this.http.close();
  }

  /**
   * The verdict for `url` from a state `robotsFor` gave, as `check` makes it; `explanation`
   * when the file's explanation was computed elsewhere (the service's worker threads).
   */
  verdict(
    url: string,
    state: RobotsState,
    agents: readonly string[] = this.agents,
    explanation?: Explanation,
    agentNotes: readonly string[] = this.agentNotes,
  ): CheckResult {
    const result = verdictFromState(url, state, agents, {
      agentMode: this.agentMode,
      now: this.now(),
      unreachableWindow: this.policy.unreachableWindow,
      ...(explanation ? { explanation } : {}),
    });
    return agentNotes.length > 0 ? { ...result, agentNotes: [...agentNotes] } : result;
  }

  /**
   * The names a state's verdicts are made for: with `agentMode: 'fallback'`, the first name
   * with a group of its own in the file (all of them when none has one: `*` applies alike).
   */
  agentsFor(state: RobotsState, agents: readonly string[] = this.agents): readonly string[] {
    return agentsFor(state.robots, agents, this.agentMode);
  }

  /** The file at `url`, fetched once however many ask, and kept in the store under `key`. */
  private refresh(
    key: string,
    url: string,
    previous: CacheEntry | undefined,
    maxBytes = this.httpOptions.maxBytes,
    beforeHop?: (url: string) => Promise<string | undefined>,
  ): Promise<CacheEntry> {
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.fetchAndStore(key, url, previous, maxBytes, beforeHop).finally(() =>
        this.inflight.delete(key),
      );
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async fetchAndStore(
    origin: string,
    url: string,
    previous: CacheEntry | undefined,
    maxBytes: number,
    beforeHop?: (url: string) => Promise<string | undefined>,
  ): Promise<CacheEntry> {
    let lease: Lease | undefined;
    if (this.store.acquireLease) {
      // Fleet-wide single flight: whoever takes the lease fetches; the others wait for it.
      const deadline = Date.now() + this.fleet.waitMs;
      let pause = this.fleet.pollMs;
      for (;;) {
        lease = await this.tryLease(origin);
        // Also after taking the lease: its last holder may have just stored the result.
        const entry = await this.storeGet(origin);
        const newer = entry && entry.fetchedAt > (previous?.fetchedAt ?? -Infinity);
        if (newer && this.now() < entry.expiresAt && readsEnough(entry, maxBytes)) {
          await lease?.release().catch(() => {});
          return entry;
        }
        if (lease || Date.now() >= deadline) break; // ours to fetch, or waited long enough
        // Backing off: a long fetch by another process costs a few looks, not one per 50 ms.
        await new Promise((done) => setTimeout(done, Math.min(pause, deadline - Date.now())));
        pause = Math.min(pause * 2, MAX_POLL_MS);
      }
    }
    // A short lease, renewed while the fetch lasts: if this process dies or loses the store,
    // the others take over within one lease time, not one fetch timeout.
    const renewal = lease?.renew
      ? setInterval(
          () => void lease.renew!(this.fleet.leaseTtlMs).catch(() => false),
          this.fleet.leaseTtlMs / 3,
        )
      : undefined;
    renewal?.unref();
    try {
      const started = performance.now();
      const result = await this.http.fetch(url, {
        ...this.httpOptions,
        maxBytes,
        ...(beforeHop ? { beforeHop } : {}),
      });
      this.onFetch?.({
        robotsUrl: url,
        outcome: result.outcome,
        status: result.status,
        durationMs: performance.now() - started,
        ...(result.error ? { error: result.error } : {}),
      });
      const entry = entryFromFetch(url, result, previous, this.now(), this.policy);
      const ttl = entry.expiresAt - this.now() + this.policy.unreachableWindow;
      await this.storeSet(origin, entry, ttl);
      return entry;
    } finally {
      clearInterval(renewal);
      await lease?.release().catch(() => {});
    }
  }

  private async tryLease(origin: string): Promise<Lease | undefined> {
    try {
      return await this.store.acquireLease!(origin, this.fleet.leaseTtlMs);
    } catch (error) {
      // A store that cannot lease: fetch as if we held it.
      this.onStoreError(error, 'set');
      return { release: async () => {} };
    }
  }

  /** The parsed file for `entry`, reusing the one in use when the body is the same fetch. */
  private parsedFor(hot: HotEntry | undefined, entry: Omit<CacheEntry, 'lastGood'>): RobotsTxt {
    if (hot?.robots && hot.robotsFetchedAt === entry.fetchedAt) return hot.robots;
    return parse(Buffer.from(entry.body ?? '', 'base64'), {
      profile: this.profile,
      maxBytes: this.httpOptions.maxBytes,
    });
  }

  /** The entry in use is still fresh: checks need neither the store, nor a fetch, nor DNS. */
  private isFresh(hot: HotEntry): boolean {
    return this.now() < hot.entry.expiresAt;
  }

  /** What the parsed-file map holds: origins, and their estimated bytes (see `maxParsedBytes`). */
  get parsedUsage(): { origins: number; bytes: number } {
    return this.hot.usage;
  }

  private async storeGet(key: string): Promise<CacheEntry | undefined> {
    try {
      return await this.store.get(key);
    } catch (error) {
      this.onStoreError(error, 'get');
      return undefined;
    }
  }

  private async storeSet(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    try {
      await this.store.set(key, entry, ttlMs);
    } catch (error) {
      this.onStoreError(error, 'set');
    }
  }
}

/**
 * Whether an entry read its body far enough for a reader with limit `maxBytes`: a body cut
 * by a smaller limit (another member of the fleet, sharing the store) may miss a rule past
 * the cut, so that reader fetches the file again. A cut body is as long as the limit that
 * cut it.
 */
function readsEnough(entry: CacheEntry, maxBytes: number): boolean {
  // A failing fetch's last good copy is what there is until the site answers again.
  return entry.outcome !== 'ok' || !entry.truncated || base64Bytes(entry.body ?? '') >= maxBytes;
}

/** Bytes a base64 text holds. */
function base64Bytes(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}
