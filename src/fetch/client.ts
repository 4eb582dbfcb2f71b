import { MemoryStore } from '../cache/index.ts';
import { BoundedMap } from '../core/internal.ts';
import type { ProfileName } from '../core/index.ts';
import { isRefusedAddressError } from './errors.ts';
import type { HostResolver } from './net/resolver.ts';
import {
  agentsFor,
  redirectRefusal,
  verdictFromState,
  type CheckResult,
  type StateVerdictOptions,
} from './answers/verdict.ts';

import type { AgentMode } from './files/state.ts';
import type { RobotsHttp, FetchOutcome, HttpOptions } from './net/robots-http.ts';
import { EntryCache } from './files/entry-cache.ts';
import { PageFetches } from './net/pages.ts';
import { RequestIdentity } from './net/identity.ts';
import { TdmrepFiles } from './files/tdmrep-files.ts';
import { locate } from './net/location.ts';
import { untilAborted } from './net/until-aborted.ts';
import { ParsedFiles } from './files/parsed-files.ts';
import { OriginStates } from './files/origin-states.ts';
import {
  checkedOptions,
  connections,
  positive,
  readNames,
  type RobotsClientOptions,
} from './options.ts';

export type { RobotsClientOptions } from './options.ts';
export type { FetchReport } from './files/entry-cache.ts';
export type { RobotsState, TdmrepState } from './files/state.ts';
export type { ClientSeam, StreamOptions } from './seam.ts';
import type { RobotsState, TdmrepState } from './files/state.ts';
import { usageFor, type UsageAnswer } from './answers/usage.ts';
import { DEFAULT_POLITENESS, HostTurns, type Turn } from './politeness.ts';
import { DEFAULT_POLICY, type CachePolicy } from './files/lifetimes.ts';
import type { ClientSeam } from './seam.ts';

let seamOf: (client: RobotsClient) => ClientSeam;

/** The seam of `client` (see `ClientSeam`). */
export function clientSeam(client: RobotsClient): ClientSeam {
  return seamOf(client);
}

/** How long a fleet fetch lease lasts unless renewed (see `fleet.leaseTtlMs`). */
const DEFAULT_LEASE_TTL_MS = 5_000;

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
  /** The User-Agent header its requests send. */
  readonly userAgent: string;
  /** The names robots.txt groups are matched by (product tokens). */
  readonly agents: readonly string[];
  /** How fetched files are interpreted. */
  readonly profile: ProfileName;
  /** How the names given were read, where they were not product tokens already. */
  private readonly agentNotes: readonly string[];
  /** How many bytes of a fetched file are read. */
  private readonly maxBytes: number;
  /** How several names are read: ordered fallbacks or one merged crawler. */
  private readonly agentMode: AgentMode;
  /** What the service and the adapters ask besides the public members (see `clientSeam`). */
  readonly #seam: ClientSeam;
  private readonly policy: CachePolicy;
  private readonly now: () => number;
  private readonly http: RobotsHttp;
  /** How the client's own files and pages are requested (User-Agent, limits, identity). */
  readonly #fileRequest: Omit<HttpOptions, 'maxBytes'> & { timeoutMs: number };
  /** Page fetches: one per URL asked at once, and bounded (see `fetchPage`). */
  private readonly pages: PageFetches;
  /** Per origin, the robots.txt state: the entry in use and its parsed file, or fetched. */
  private readonly states: OriginStates;
  private readonly resolver: HostResolver;
  /** Signatures and price headers the client's requests carry. */
  private readonly identity: RequestIdentity;
  private readonly tdmrep: TdmrepFiles;
  private readonly turns: HostTurns;
  /** Names read by `names`, by the string given (bounded: clients may send any). */
  private readonly namesRead = new BoundedMap<
    string,
    { agents: readonly string[]; notes: readonly string[] }
  >({ maxEntries: 256 });

  static {
    seamOf = (client) => client.#seam;
  }

  constructor(options: RobotsClientOptions) {
    this.#seam = this.#seamOf();
    const {
      userAgent,
      agents,
      notes,
      agentMode,
      request,
      connectTimeoutMs,
      edgeReading,
      maxPrice,
    } = checkedOptions(options);
    this.identity = new RequestIdentity({
      ...(options.webBotAuth ? { webBotAuth: options.webBotAuth } : {}),
      ...(maxPrice ? { maxPrice } : {}),
    });
    const identity = this.identity;
    this.userAgent = userAgent;
    this.agents = agents;
    this.agentNotes = notes;
    const store = options.store ?? new MemoryStore({ now: options.now });
    this.profile = options.profile ?? 'google';
    this.policy = { ...DEFAULT_POLICY, ...options.cache };
    this.now = options.now ?? Date.now;
    this.agentMode = agentMode;
    ({ resolver: this.resolver, http: this.http } = connections(
      options,
      request.timeoutMs,
      connectTimeoutMs,
    ));
    this.maxBytes = request.maxBytes;
    this.turns = new HostTurns(
      store,
      { ...DEFAULT_POLITENESS, ...options.politeness },
      this.now,
      options.onShortenedCrawlDelay,
    );
    const entries = new EntryCache({
      store,
      http: this.http,
      request: identity.signs
        ? { ...request, requestHeaders: (url) => identity.forFile(url) }
        : request,
      edgeReading,
      policy: this.policy,
      now: this.now,
      fleet: {
        leaseTtlMs: options.fleet?.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
        waitMs: options.fleet?.waitMs ?? request.timeoutMs + 5_000,
        pollMs: options.fleet?.pollMs ?? 50,
      },
      onStoreError:
        options.onStoreError ??
        ((error, operation) =>
          console.warn(`repkit: cache ${operation} failed, going on without it: ${String(error)}`)),
      onFetch: options.onFetch,
    });
    this.#fileRequest = { ...request, requestHeaders: (url) => identity.forPage(url) };
    this.pages = new PageFetches(this.http, this.#fileRequest);
    this.tdmrep = new TdmrepFiles(entries, this.now);
    // Per origin, the entry in use and its parsed file (bounded, least recently used out).
    const parsed = new ParsedFiles(
      positive('maxParsed', options.maxParsed ?? 1_000),
      positive('maxParsedBytes', options.maxParsedBytes ?? 64 * 1024 * 1024),
    );
    this.states = new OriginStates(entries, parsed, this.now, {
      profile: this.profile,
      maxBytes: this.maxBytes,
    });
  }

  /**
   * Whether the crawler (or `options.agent`) may fetch `url`. Fetches the origin's robots.txt when no fresh copy is
   * cached (one fetch per origin however many callers ask at once). Throws `InvalidUrlError`
   * for a URL that does not parse or has no robots.txt; fetch failures are verdicts, not errors.
   * The result names the deciding rule; `explain: true` adds the whole explanation (every
   * match, the groups chosen), which costs several times the check. `signal` stops this
   * call's wait (it rejects with the signal's reason, as fetch does); a fetch other callers
   * share goes on for them, and its result is cached.
   *
   * @example
   * await client.check('https://example.com/page', { signal: AbortSignal.timeout(2_000) });
   */
  async check(
    url: string,
    options: { agent?: string | readonly string[]; explain?: boolean; signal?: AbortSignal } = {},
  ): Promise<CheckResult> {
    const state = await untilAborted(this.robotsFor(url), options.signal);
    const { agents, notes } = this.#names(options.agent);
    return this.#verdict(url, state, {
      agents,
      agentNotes: notes,
      explain: options.explain === true,
    });
  }

  /**
   * The names groups are matched by for `agent` (the client's own when undefined), read as
   * robots.txt names crawlers (`Googlebot/2.1` → `Googlebot`), and notes where that changed
   * a name.
   */
  #names(agent?: string | readonly string[]): {
    agents: readonly string[];
    notes: readonly string[];
  } {
    if (agent === undefined) return { agents: this.agents, notes: this.agentNotes };
    if (typeof agent !== 'string') return readNames(agent);
    // A service reads the same few names on every request: each is read once.
    let read = this.namesRead.get(agent);
    if (!read) {
      read = readNames(agent);
      this.namesRead.set(agent, read);
    }
    return read;
  }

  /**
   * The robots.txt that governs `url`, fetched or from the cache. `mayFetch` is asked before
   * this call starts a fetch of its own (a service's budget of new origins per client): false
   * rejects with `FetchBudgetError`, and nothing is requested.
   */
  robotsFor(url: string, options: { mayFetch?: () => boolean } = {}): Promise<RobotsState> {
    return this.states.stateFor(url, options);
  }

  /**
   * Throws `RefusedAddressError` when `url`'s host is, or resolves to, an address the
   * `allowAddress` filter refuses (and `InvalidUrlError` for a URL without a robots.txt).
   * An origin whose robots.txt is at hand needs no DNS; names are resolved through the
   * client's DNS cache, with its limits. A failing lookup is not an error here: the fetch
   * will report it as Google does.
   */
  async #preflight(url: string): Promise<void> {
    const location = locate(url);
    if (this.states.freshAt(location.origin)) return;
    try {
      await this.resolver.resolve(new URL(location.origin).hostname);
    } catch (error) {
      if (isRefusedAddressError(error)) throw error;
    }
  }

  /**
   * Politeness for `url`'s host, shared by every process on the store: `go` when the caller
   * may request it now (the turn is taken; the next comes a Crawl-delay later), else how long
   * to wait before asking again. The Crawl-delay is the file's for this client's names; one
   * above `politeness.maxCrawlDelayMs` (a day) is `over-limit`, no turn, until the file is
   * read again (or shortened, with `shortenCrawlDelay`); a pause from `backOff` holds every
   * process off.
   */
  async turn(url: string): Promise<Turn> {
    return this.#turnFor(await this.robotsFor(url));
  }

  /** `turn` for a state at hand. */
  #turnFor(state: RobotsState): Promise<Turn> {
    return this.turns.turnFor(state, state.robots?.crawlDelay(this.#agentsFor(state)));
  }

  /**
   * Leaves `url`'s host alone for every process on the store, after it answered 429 or 503:
   * for its `Retry-After` (seconds or an HTTP date; default 1 minute, at most a day; see
   * `politeness`). Answers the pause in milliseconds.
   */
  async backOff(url: string, retryAfter?: string | number): Promise<number> {
    return this.turns.backOff(locate(url).origin, retryAfter);
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
    return this.tdmrep.for(origin, this.#hopCheck(options.agent));
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
    options: { agent?: string | readonly string[]; maxBytes?: number } = {},
  ): Promise<FetchOutcome> {
    const maxBytes = options.maxBytes ?? 1024 * 1024;
    const agentKey = options.agent === undefined ? '' : [options.agent].flat().join('\n');
    return this.pages.fetch(url, maxBytes, agentKey, this.#hopCheck(options.agent));
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
  ): Promise<
    | {
        /** Why not, in words. */
        reason: string;
        /** Its robots.txt cannot be read now: asking again later may allow it. */
        retryLater: boolean;
      }
    | undefined
  > {
    let result: CheckResult;
    try {
      result = await this.check(url, options);
    } catch (error) {
      return { reason: error instanceof Error ? error.message : String(error), retryLater: false };
    }
    return redirectRefusal(result);
  }

  /** What the service and the adapters ask besides the public members (see `ClientSeam`). */
  #seamOf(): ClientSeam {
    return {
      names: (agent) => this.#names(agent),
      verdict: (url, state, options) => this.#verdict(url, state, options),
      agentsFor: (state, agents) => this.#agentsFor(state, agents),
      cachedState: (url) => this.states.cachedState(url),
      preflight: (url) => this.#preflight(url),
      turnFor: (state) => this.#turnFor(state),
      maxBytes: () => this.maxBytes,
      parsedUsage: () => this.states.usage,
      streamFile: (url, options) =>
        this.http.fetch(url, {
          ...this.#fileRequest,
          maxBytes: options.maxBytes,
          timeoutMs: options.timeoutMs ?? this.#fileRequest.timeoutMs,
          ...(options.accept ? { accept: options.accept } : {}),
          keepHeaders: ['content-type'],
          beforeHop: this.#hopCheck(options.agent),
          sink: options.sink,
        }),
    };
  }

  /** `beforeHop` for the client's own fetches: a refused redirect's reason, in words. */
  #hopCheck(agent?: string | readonly string[]): (url: string) => Promise<string | undefined> {
    return async (url) => {
      const refused = await this.refuseRedirect(url, agent === undefined ? {} : { agent });
      return refused && `redirect to ${url} not followed: ${refused.reason}`;
    };
  }

  /**
   * One explained answer for the crawler and `url`: may it fetch, index, use for AI training,
   * use for search, and is text-and-data mining reserved (TDMRep), each with the robots.txt
   * line, header, meta tag or tdmrep.json rule that said so. The page and its origin's
   * tdmrep.json are fetched (not cached: the page) only where robots.txt allows them. The
   * robots.txt's `License:` lines are named; with `llms: true` the site's llms.txt (its
   * `LLMs:` line's, else `/llms.txt`) is fetched where its robots.txt allows it, and
   * reported (never read as a permission).
   */
  usage(
    url: string,
    options: { agent?: string | readonly string[]; llms?: boolean } = {},
  ): Promise<UsageAnswer> {
    return usageFor(this, this.#seam, url, options.agent, { llms: options.llms === true });
  }

  /**
   * The headers a request for the page `url` carries besides the crawler's own: the Web Bot
   * Auth signature (`signature`, `signature-input`, `signature-agent`) and
   * `crawler-max-price`, each when the client has it set; `{}` otherwise. The guards and the
   * Crawlee adapter add them to the requests they let through. Rejects when the key cannot
   * be read (a request is then not sent unsigned).
   */
  requestHeaders(url: string): Promise<Record<string, string>> {
    return this.identity.forPage(url);
  }

  /** Forgets the cached result for `url`'s origin. */
  async forget(url: string): Promise<void> {
    const { origin } = locate(url);
    await this.states.forget(origin);
  }

  /** Closes connections; the client must not be used afterwards. */
  async close(): Promise<void> {
    await this.http.close();
  }

  /**
   * The verdict for `url` from a state `robotsFor` gave, as `check` makes it (see
   * `StateVerdictOptions`).
   */
  #verdict(url: string, state: RobotsState, options: StateVerdictOptions = {}): CheckResult {
    const { agents = this.agents, agentNotes = this.agentNotes } = options;
    const result = verdictFromState(url, state, agents, {
      agentMode: this.agentMode,
      now: this.now(),
      unreachableWindow: this.policy.unreachableWindow,
      ...(options.explain ? { explain: true } : {}),
      ...(options.computed ? { computed: options.computed } : {}),
      ...(options.exact ? { exact: true } : {}),
    });
    return agentNotes.length > 0 ? { ...result, agentNotes: [...agentNotes] } : result;
  }

  /**
   * The names a state's verdicts are made for: with `agentMode: 'fallback'`, the first name
   * with a group of its own in the file (all of them when none has one: `*` applies alike).
   */
  #agentsFor(state: RobotsState, agents: readonly string[] = this.agents): readonly string[] {
    return agentsFor(state.robots, agents, this.agentMode);
  }
}
