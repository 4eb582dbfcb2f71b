import type { LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';
import type { CacheStore } from '../cache/index.ts';
import type { EdgeReading } from '../cache/internal.ts';
import { crawlerNames, isValidProductToken, type ProfileName } from '../core/index.ts';
import { DEFAULT_MAX_BYTES, parsePriceHeader } from '../core/internal.ts';
import type { AddressFilter } from './net/addresses.ts';
import { InvalidOptionError } from './errors.ts';
import type { PolitenessPolicy } from './politeness.ts';
import type { CachePolicy } from './files/lifetimes.ts';
import type { AgentMode } from './files/state.ts';
import type { FetchReport } from './files/entry-cache.ts';
import type { WebBotAuthOptions } from './net/identity.ts';
import { ANY_ADDRESS } from './net/addresses.ts';
import { RobotsHttp } from './net/robots-http.ts';
import { proxyFromEnvironment } from './net/proxy.ts';
import { HostResolver } from './net/resolver.ts';

/**
 * How a `RobotsClient` fetches, caches and reads robots.txt. Only `userAgent` is required.
 *
 * @example
 * ```ts
 * import { RobotsClient } from 'repkit/fetch';
 *
 * const client = new RobotsClient({
 *   userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
 *   timeoutMs: 10_000,
 *   cache: { defaultTtl: 12 * 60 * 60 * 1000 },
 * });
 * ```
 */
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
   * Bytes those origins may take, estimated from each body's size (docs/guide/fetch.md);
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
  dns?: {
    /** Lookups at once. */
    maxConcurrent?: number;
    /** How long a lookup may take. */
    timeoutMs?: number;
    /** How long an answer is kept. */
    ttlMs?: number;
  };
  /**
   * With a store that has leases (RedisStore): one process of the fleet fetches an origin, the
   * others wait for its result. `leaseTtlMs`: how long a lease lasts if its holder dies or
   * loses the store (default 5 s; the holder renews it every third of that while it fetches);
   * `waitMs`: how long to wait for a holder that keeps its lease before fetching anyway
   * (default: `timeoutMs` + 5 s); `pollMs`: the first wait between looks (default 50 ms),
   * doubled after each look up to 1 s.
   */
  fleet?: {
    /** How long a lease lasts if its holder dies (renewed while it fetches). */
    leaseTtlMs?: number;
    /** How long to wait for a holder before fetching anyway. */
    waitMs?: number;
    /** The first wait between looks. */
    pollMs?: number;
  };
  /**
   * Sends robots.txt requests through this undici dispatcher (a `ProxyAgent`, the crawler's
   * own pool) instead of the client's connections; the caller closes it. Not with
   * `allowAddress`, which cannot see a dispatcher's connections (use `proxy: 'env'`).
   */
  dispatcher?: Dispatcher;
  /**
   * `'env'`: honour `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` (undici's `EnvHttpProxyAgent`).
   * Default: connect directly. Not with `dispatcher`. With `allowAddress`, the guard holds
   * on both paths: direct connections (`NO_PROXY` hosts, redirects to them included) are
   * checked at the socket, and a host sent to the proxy is resolved here first and refused
   * when it resolves to a refused address, or does not resolve here.
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
  /**
   * Called for each turn taken faster than the site asks (`politeness.shortenCrawlDelay`):
   * the origin, the Crawl-delay its file asks for and the one used, in ms.
   */
  onShortenedCrawlDelay?: (shortened: { origin: string; askedMs: number; usedMs: number }) => void;
  /**
   * How a bot wall or a payment demand answering for a robots.txt (see `classifyEdge`) is
   * read. `'unreachable'` (default): as a robots.txt that cannot be read, so nothing of the
   * site is fetched for now (reason `robots-txt-challenge`; a good copy from before still
   * serves), never as "no robots.txt". `'literal'`: as Google reads the status and body it
   * was served (a 2xx page: a file without rules; a 403 or 402: no robots.txt, everything
   * allowed; a 503: unreachable), with reason `robots-txt-challenge-literal`. Every answer
   * carries the `edge` either way.
   */
  challenge?: EdgeReading;
  /**
   * For crawlers that pay (Cloudflare's pay per crawl): the most one page may cost, as
   * `'USD 0.01'`, sent as `crawler-max-price` with the page requests repkit makes and the
   * requests its guards and Crawlee adapter let through. Default: not sent, so nothing is
   * ever paid; a page asking payment answers 402 with its price (`edge.price`).
   */
  crawlerMaxPrice?: string;
  /**
   * Web Bot Auth: every request the client makes (robots.txt, tdmrep.json, pages) is signed
   * with this Ed25519 key (HTTP Message Signatures, RFC 9421, tag `web-bot-auth`), with the
   * `Signature-Agent` given; `requestHeaders(url)` gives the same for requests the guards and
   * the Crawlee adapter let through. Needs the optional peer `web-bot-auth`.
   */
  webBotAuth?: WebBotAuthOptions;
}

/**
 * Crawler names as given (one, several, or a User-Agent header) read as product tokens
 * (see `crawlerName`), with a note for each name that changed.
 */
export function readNames(given: string | readonly string[]): {
  agents: string[];
  notes: string[];
} {
  // Comma-separated names are ordered fallbacks, as everywhere (see `crawlerNames`).
  const named = [given].flat().flatMap((name) => crawlerNames(String(name)));
  return {
    agents: named.map((n) => n.token),
    notes: named.flatMap((n) => (n.note ? [n.note] : [])),
  };
}

/** A client's options checked: a clear `InvalidOptionError` for each that cannot work. */
export function checkedOptions(options: RobotsClientOptions) {
  const userAgent = String(options?.userAgent ?? '').trim();
  if (userAgent === '') throw new InvalidOptionError('userAgent', 'must name the crawler');
  const { agents, notes } = readNames(options.agent === undefined ? userAgent : options.agent);
  if (agents.length === 0 || agents.some((a) => !isValidProductToken(a))) {
    throw new InvalidOptionError(
      'agent',
      'give a crawler name (the User-Agent has no product token)',
    );
  }
  const connectTimeoutMs = positive('connectTimeoutMs', options.connectTimeoutMs ?? 5_000);
  const request = {
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
  const agentMode: AgentMode = options.agentMode ?? 'fallback';
  if (agentMode !== 'fallback' && agentMode !== 'merged') {
    throw new InvalidOptionError(
      'agentMode',
      `must be 'fallback' or 'merged', got ${String(agentMode)}`,
    );
  }
  const edgeReading: EdgeReading = options.challenge ?? 'unreachable';
  if (edgeReading !== 'unreachable' && edgeReading !== 'literal') {
    throw new InvalidOptionError(
      'challenge',
      `must be 'unreachable' or 'literal', got ${String(edgeReading)}`,
    );
  }
  const maxPrice =
    options.crawlerMaxPrice === undefined ? undefined : parsePriceHeader(options.crawlerMaxPrice);
  if (options.crawlerMaxPrice !== undefined && !maxPrice) {
    throw new InvalidOptionError(
      'crawlerMaxPrice',
      `must be a currency and an amount, as 'USD 0.01', got ${String(options.crawlerMaxPrice)}`,
    );
  }
  // The crawler named by the client's own User-Agent is the documented default, not a
  // reading to warn about on every verdict: notes are kept for names given as `agent`.
  return {
    userAgent,
    agents,
    notes: options.agent === undefined ? [] : notes,
    agentMode,
    request,
    connectTimeoutMs,
    edgeReading,
    ...(maxPrice ? { maxPrice: `${maxPrice.currency} ${maxPrice.amount}` } : {}),
  };
}

export function positive(option: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new InvalidOptionError(
      option,
      `must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${value}`,
    );
  }
  return value;
}

/**
 * A client's way out: its name resolution (with the address guard and DNS limits) and its
 * HTTP layer (its own connections, the caller's dispatcher, or the environment's proxies).
 */
export function connections(
  options: RobotsClientOptions,
  timeoutMs: number,
  connectTimeoutMs: number,
): { resolver: HostResolver; http: RobotsHttp } {
  const allowAddress = options.allowAddress ?? ANY_ADDRESS;
  const resolver = new HostResolver({
    allowAddress,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.dns?.maxConcurrent ? { maxConcurrent: options.dns.maxConcurrent } : {}),
    timeoutMs: options.dns?.timeoutMs ?? Math.min(5_000, timeoutMs),
    ...(options.dns?.ttlMs !== undefined ? { ttlMs: options.dns.ttlMs } : {}),
  });
  const http = new RobotsHttp({
    connectTimeoutMs: Math.min(connectTimeoutMs, timeoutMs),
    resolver,
    allowAddress,
    dispatcher: options.dispatcher,
    ...(options.proxy === 'env'
      ? {
          proxy: proxyFromEnvironment(),
          ownsDispatcher: true,
          guardProxied: options.allowAddress !== undefined,
        }
      : {}),
  });
  return { resolver, http };
}
