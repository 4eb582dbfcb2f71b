import type { LookupFunction } from 'node:net';
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { MemoryStore } from '../cache/memory.ts';
import { usedEntry, type CacheEntry, type CacheStore, type Lease } from '../cache/store.ts';
import {
  DEFAULT_MAX_BYTES,
  parse,
  crawlerName,
  isValidProductToken,
  type Explanation,
  type ProfileName,
  type RobotsTxt,
  parseTdmrep,
  type TdmrepFile,
} from '../core/index.ts';
import { ANY_ADDRESS, type AddressFilter } from './addresses.ts';
import { InvalidOptionError, InvalidUrlError, isRefusedAddressError } from './errors.ts';
import { HostResolver } from './resolver.ts';
import { agentsFor, verdictFromState, type AgentMode, type CheckResult } from './verdict.ts';
import { RobotsHttp, type FetchOutcome } from './http.ts';
import { locate, type RobotsLocation } from './location.ts';
import { usageFor, type UsageAnswer } from './usage.ts';
import {
  DEFAULT_POLITENESS,
  backOffDelay,
  crawlDelayInterval,
  turnKeeper,
  type PolitenessPolicy,
  type Turn,
} from './politeness.ts';
import {
  DEFAULT_POLICY,
  freshLifetime,
  parseRetryAfter,
  retryDelay,
  type CachePolicy,
} from './policy.ts';

export interface RobotsClientOptions {
  /** Sent as the User-Agent header; its product token is the crawler name (`ExampleBot/1.0` → `ExampleBot`). */
  userAgent: string;
  /** Name(s) to match robots.txt groups by, instead of the User-Agent's product token. */
  agent?: string | readonly string[];
  /** Where results are kept. Default: a `MemoryStore`. */
  store?: CacheStore;
  /** Interpretation of the files. Default `google`. */
  profile?: ProfileName;
  /** Bytes of robots.txt read (after decompression). Default 512,000 (500 KiB). */
  maxBytes?: number;
  /** Redirects followed. Default 5, as Google. */
  maxRedirects?: number;
  /** Time to establish a connection. Default 5 s. */
  connectTimeoutMs?: number;
  /** Time for the whole fetch, redirects and body included. Default 15 s. */
  timeoutMs?: number;
  /** Cache lifetimes; see `CachePolicy`. */
  cache?: Partial<CachePolicy>;
  /** The clock (ms since the epoch). Tests pass one they control. Default `Date.now`. */
  now?: () => number;
  /** Called when the store fails (checks go on without it). Default: `console.warn`. */
  onStoreError?: (error: unknown, operation: 'get' | 'set') => void;
  /** Origins whose entry and parsed file are kept at hand in memory. Default 1,000. */
  maxParsed?: number;
  /**
   * Bytes those origins may take, estimated from each body's size (see README, "Memory");
   * the least recently used go first. Default 64 MiB.
   */
  maxParsedBytes?: number;
  /** Host name resolution, as for `net.connect` (custom DNS, pinning, tests). Default: the system's. */
  lookup?: LookupFunction;
  /**
   * Whether a fetch may connect to an IP address, checked at the socket for every connection
   * (every redirect hop included): `isPublicAddress` refuses loopback, private, link-local and
   * reserved ranges. Default: every address.
   */
  allowAddress?: AddressFilter;
  /** DNS limits: lookups at once (default 2), wait per name (default 5 s), reuse (default 60 s). */
  dns?: { maxConcurrent?: number; timeoutMs?: number; ttlMs?: number };
  /**
   * With a store that has leases (RedisStore): one process of the fleet fetches an origin, the
   * others wait for its result. `leaseTtlMs`: how long a lease lasts if its holder dies
   * (default: `timeoutMs` + 5 s); `waitMs`: how long to wait for another holder before
   * fetching anyway (default: the lease TTL); `pollMs`: how often to look (default 50 ms).
   */
  fleet?: { leaseTtlMs?: number; waitMs?: number; pollMs?: number };
  /**
   * Sends robots.txt requests through this undici dispatcher (a `ProxyAgent`, the crawler's
   * own pool) instead of the client's connections; the caller closes it. Not with
   * `allowAddress`, which guards the client's own connections only.
   */
  dispatcher?: Dispatcher;
  /**
   * `'env'`: honour `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` (undici's `EnvHttpProxyAgent`).
   * Default: connect directly. Not with `dispatcher` or `allowAddress`.
   */
  proxy?: 'env';
  /**
   * How several names in `agent` are read. `'fallback'` (default): in order, the first name
   * that has a group of its own in the file, else `*`, as Google's crawler families work
   * (`['Googlebot-Image', 'Googlebot']`). `'merged'`: every group of every name applies
   * together, as one crawler with several names.
   */
  agentMode?: AgentMode;
  /** Crawl-delay and back-off bounds for `turn` and `backOff`; see `PolitenessPolicy`. */
  politeness?: Partial<PolitenessPolicy>;
  /** Called after every robots.txt fetch (for metrics and logs). */
  onFetch?: (fetch: FetchReport) => void;
}

/** One robots.txt fetch, as `onFetch` reports it. */
export interface FetchReport {
  robotsUrl: string;
  outcome: CacheEntry['outcome'];
  /** 0 when no response arrived. */
  status: number;
  durationMs: number;
  error?: string;
}

/** An origin's TDMRep file as the client holds it. */
export interface TdmrepState {
  /** `scheme://host[:port]/.well-known/tdmrep.json`. */
  url: string;
  entry: CacheEntry;
  /** The parsed file, when one was served (2xx, or a stale good copy). */
  file?: TdmrepFile;
}

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

/** A robots.txt as the client holds it for one origin. */
export interface RobotsState {
  location: RobotsLocation;
  entry: CacheEntry;
  source: CheckResult['source'];
  /** The parsed file behind the verdicts, when there is one (`ok`, or a stale good copy). */
  robots?: RobotsTxt;
}

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
  /** Per origin, the entry in use and its parsed file (bounded, least recently used out). */
  private readonly hot = new Map<string, HotEntry>();
  private readonly maxParsed: number;
  private readonly maxParsedBytes: number;
  private hotBytes = 0;
  private readonly resolver: HostResolver;
  private readonly onStoreError: (error: unknown, operation: 'get' | 'set') => void;
  private readonly fleet: { leaseTtlMs: number; waitMs: number; pollMs: number };
  private readonly onFetch: ((fetch: FetchReport) => void) | undefined;
  private readonly politeness: PolitenessPolicy;
  /** Parsed TDMRep files at hand, by store key (at most `TDMREP_PARSED`). */
  private readonly tdmrepHot = new Map<string, { entry: CacheEntry; file?: TdmrepFile }>();
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
    this.maxParsed = positive('maxParsed', options.maxParsed ?? 1_000);
    this.maxParsedBytes = positive('maxParsedBytes', options.maxParsedBytes ?? 64 * 1024 * 1024);
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
    if ((options.proxy || options.dispatcher) && options.allowAddress) {
      throw new InvalidOptionError(
        'allowAddress',
        "the address guard holds on the client's own connections; a proxy or dispatcher connects for itself",
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
      dispatcher: options.proxy === 'env' ? proxyFromEnvironment() : options.dispatcher,
      ownsDispatcher: options.proxy === 'env',
    });
    this.maxBytes = this.httpOptions.maxBytes;
    this.onFetch = options.onFetch;
    this.politeness = { ...DEFAULT_POLITENESS, ...options.politeness };
    this.turns = turnKeeper(this.store);
    const leaseTtlMs = options.fleet?.leaseTtlMs ?? this.httpOptions.timeoutMs + 5_000;
    this.fleet = {
      leaseTtlMs,
      waitMs: options.fleet?.waitMs ?? leaseTtlMs,
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
      this.hot.delete(origin);
      this.hot.set(origin, hot); // most recently used last
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
    if (cached && this.now() < cached.expiresAt) {
      entry = cached;
    } else {
      entry = await this.refresh(origin, location.robotsUrl, cached);
      fetched = true;
    }
    const used = usedEntry(entry);
    const stale = used !== entry;
    const source = stale ? 'stale' : fetched ? 'fetched' : 'cache';
    const robots = used.outcome === 'ok' ? this.parsedFor(hot, used) : undefined;
    this.remember(origin, { entry, stale, ...(robots ? { robots } : {}) });
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
   */
  async tdmrepFor(url: string): Promise<TdmrepState> {
    const { origin } = locate(url);
    const key = `${origin}#tdmrep`;
    const tdmrepUrl = `${origin}/.well-known/tdmrep.json`;
    const hot = this.tdmrepHot.get(key);
    if (hot && this.now() < hot.entry.expiresAt) {
      return { url: tdmrepUrl, entry: hot.entry, ...(hot.file ? { file: hot.file } : {}) };
    }
    const cached = await this.storeGet(key);
    const entry =
      cached && this.now() < cached.expiresAt
        ? cached
        : await this.refresh(key, tdmrepUrl, cached, TDMREP_MAX_BYTES);
    const used = usedEntry(entry);
    const file =
      used.outcome === 'ok'
        ? parseTdmrep(new TextDecoder().decode(Buffer.from(used.body ?? '', 'base64')))
        : undefined;
    this.tdmrepHot.delete(key);
    this.tdmrepHot.set(key, { entry, ...(file ? { file } : {}) });
    for (const oldest of this.tdmrepHot.keys()) {
      if (this.tdmrepHot.size <= TDMREP_PARSED) break;
      this.tdmrepHot.delete(oldest);
    }
    return { url: tdmrepUrl, entry, ...(file ? { file } : {}) };
  }

  /**
   * A page, for its rules: fetched through the client's own connections (so `allowAddress`
   * holds on every hop), its status, the headers that carry rules (`x-robots-tag`,
   * `robots-tag`, `content-usage`, `tdm-reservation`, `tdm-policy`) and up to `maxBytes`
   * (default 1 MiB, what page rules read of a head) of its body. Not cached. Never throws.
   */
  fetchPage(url: string, maxBytes = 1024 * 1024): Promise<FetchOutcome> {
    return this.http.fetch(url, {
      ...this.httpOptions,
      maxBytes,
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
      keepHeaders: PAGE_RULE_HEADERS,
    });
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
    this.dropHot(origin);
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
  ): Promise<CacheEntry> {
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.fetchAndStore(key, url, previous, maxBytes).finally(() =>
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
  ): Promise<CacheEntry> {
    let lease: Lease | undefined;
    if (this.store.acquireLease) {
      // Fleet-wide single flight: whoever takes the lease fetches; the others wait for it.
      const deadline = Date.now() + this.fleet.waitMs;
      for (;;) {
        lease = await this.tryLease(origin);
        // Also after taking the lease: its last holder may have just stored the result.
        const entry = await this.storeGet(origin);
        const newer = entry && entry.fetchedAt > (previous?.fetchedAt ?? -Infinity);
        if (newer && this.now() < entry.expiresAt) {
          await lease?.release().catch(() => {});
          return entry;
        }
        if (lease || Date.now() >= deadline) break; // ours to fetch, or waited long enough
        await new Promise((done) => setTimeout(done, this.fleet.pollMs));
      }
    }
    try {
      const started = performance.now();
      const result = await this.http.fetch(url, { ...this.httpOptions, maxBytes });
      this.onFetch?.({
        robotsUrl: url,
        outcome: result.outcome,
        status: result.status,
        durationMs: performance.now() - started,
        ...(result.error ? { error: result.error } : {}),
      });
      const entry = this.entryFor(url, result, previous);
      const ttl = entry.expiresAt - this.now() + this.policy.unreachableWindow;
      await this.storeSet(origin, entry, ttl);
      return entry;
    } finally {
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

  /** Turns a fetch result into the entry to keep, carrying an error run's history along. */
  private entryFor(
    url: string,
    result: FetchOutcome,
    previous: CacheEntry | undefined,
  ): CacheEntry {
    const now = this.now();
    const entry: CacheEntry = {
      v: 1,
      robotsUrl: url,
      outcome: result.outcome,
      status: result.status,
      ...(result.body ? { body: Buffer.from(result.body).toString('base64') } : {}),
      ...(result.truncated ? { truncated: true } : {}),
      headers: result.headers,
      chain: result.chain,
      ...(result.error ? { error: result.error } : {}),
      fetchedAt: now,
      expiresAt: now,
    };
    if (result.outcome !== 'error') {
      entry.expiresAt = now + freshLifetime(result.headers, now, this.policy);
      return entry;
    }
    const previousError = previous?.outcome === 'error';
    const lastGood = previousError
      ? previous.lastGood
      : previous
        ? withoutErrorRun(previous)
        : undefined;
    entry.errors = (previousError ? (previous.errors ?? 0) : 0) + 1;
    entry.errorSince = previousError ? (previous.errorSince ?? previous.fetchedAt) : now;
    if (lastGood) entry.lastGood = lastGood;
    entry.expiresAt =
      now +
      retryDelay(entry.errors, parseRetryAfter(result.headers['retry-after'], now), this.policy);
    return entry;
  }

  /** The parsed file for `entry`, reusing the one in use when the body is the same fetch. */
  private parsedFor(hot: HotEntry | undefined, entry: Omit<CacheEntry, 'lastGood'>): RobotsTxt {
    if (hot?.robots && hot.robotsFetchedAt === entry.fetchedAt) return hot.robots;
    return parse(Buffer.from(entry.body ?? '', 'base64'), {
      profile: this.profile,
      maxBytes: this.httpOptions.maxBytes,
    });
  }

  private remember(origin: string, hot: Omit<HotEntry, 'robotsFetchedAt' | 'bytes'>): void {
    const used = usedEntry(hot.entry);
    this.dropHot(origin);
    const kept: HotEntry = { ...hot, robotsFetchedAt: used.fetchedAt, bytes: estimateBytes(hot) };
    this.hot.set(origin, kept);
    this.hotBytes += kept.bytes;
    while (
      this.hot.size > this.maxParsed ||
      (this.hotBytes > this.maxParsedBytes && this.hot.size > 1)
    ) {
      this.dropHot(this.hot.keys().next().value!);
    }
  }

  /** The entry in use is still fresh: checks need neither the store, nor a fetch, nor DNS. */
  private isFresh(hot: HotEntry): boolean {
    return this.now() < hot.entry.expiresAt;
  }

  private dropHot(origin: string): void {
    const dropped = this.hot.get(origin);
    if (!dropped) return;
    this.hot.delete(origin);
    this.hotBytes -= dropped.bytes;
  }

  /** What the parsed-file map holds: origins, and their estimated bytes (see `maxParsedBytes`). */
  get parsedUsage(): { origins: number; bytes: number } {
    return { origins: this.hot.size, bytes: this.hotBytes };
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

interface HotEntry {
  entry: CacheEntry;
  /** The verdicts come from the entry's last good copy (the fetch is failing). */
  stale: boolean;
  robots?: RobotsTxt;
  /** fetchedAt of the body `robots` was parsed from. */
  robotsFetchedAt: number;
  /** Its estimated size (see `estimateBytes`). */
  bytes: number;
}

/**
 * A hot entry's memory, from the sizes that dominate it, measured on the corpus with the
 * parse, the index of a checked crawler and the entry's base64 bodies: about five times the
 * body's bytes (the text, its patterns and index), the base64 copies, and a fixed overhead.
 */
function estimateBytes(hot: Omit<HotEntry, 'robotsFetchedAt' | 'bytes'>): number {
  const base64 = (hot.entry.body?.length ?? 0) + (hot.entry.lastGood?.body?.length ?? 0);
  const parsed = hot.robots ? 5 * hot.robots.bytes.read + 64 * hot.robots.lineCount : 0;
  return 2_048 + base64 + parsed;
}

function withoutErrorRun(entry: CacheEntry): NonNullable<CacheEntry['lastGood']> {
  const { lastGood: _lastGood, errorSince: _errorSince, errors: _errors, ...good } = entry;
  return good;
}

/**
 * Crawler names as given (one, several, or a User-Agent header) read as product tokens
 * (see `crawlerName`), with a note for each name that changed.
 */
function readNames(given: string | readonly string[]): { agents: string[]; notes: string[] } {
  const named = [given].flat().map((name) => crawlerName(String(name)));
  return {
    agents: named.map((n) => n.token),
    notes: named.flatMap((n) => (n.note ? [n.note] : [])),
  };
}

function positive(option: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new InvalidOptionError(
      option,
      `must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${value}`,
    );
  }
  return value;
}

/**
 * undici's proxy agent with the environment as it is now (`HTTP_PROXY`, `HTTPS_PROXY`,
 * `NO_PROXY`, upper or lower case): read once, so that a later change of the environment
 * does not change where an existing client's requests go.
 */
function proxyFromEnvironment(): EnvHttpProxyAgent {
  const env = process.env;
  const pick = (name: string): string | undefined => env[name] ?? env[name.toLowerCase()];
  const httpProxy = pick('HTTP_PROXY');
  const httpsProxy = pick('HTTPS_PROXY') ?? httpProxy;
  const noProxy = pick('NO_PROXY');
  return new EnvHttpProxyAgent({
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    noProxy: noProxy ?? '',
  });
}
