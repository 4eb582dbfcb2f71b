import type { Edge } from '../core/index.ts';

/**
 * What one fetch of a robots.txt (or tdmrep.json, or a page) came to: the record the fetch
 * layer reads off the network and a store keeps, `Body` being how its body is held (bytes as
 * read, base64 in an entry).
 */
export interface FetchResult<Body> {
  /**
   * `ok`: a 2xx body to parse. `not-found`: no robots.txt (4xx other than 429, too many
   * redirects, a loop): no restrictions. `error`: 5xx, 429 or a network failure.
   */
  outcome: 'ok' | 'not-found' | 'error';
  /** Final HTTP status; 0 when no response arrived (DNS, refused, reset, timeout). */
  status: number;
  /** The body as served (up to the size limit, decompressed); `ok` only. */
  body?: Body;
  /** The body was longer than the limit and was cut there. */
  truncated?: boolean;
  /** Response headers that matter (cache-control, expires, date, retry-after, content-type...). */
  headers: Record<string, string>;
  /** Every URL requested, the robots.txt URL first, then each redirect target. */
  chain: string[];
  /** What went wrong, for `error` and for `not-found` caused by redirects. */
  error?: string;
  /**
   * The failure's code, when the fetch ended without an answer it could read (none came, or
   * it was cut off or malformed; `error` says it in words): the network's, the HTTP client's
   * or the decompressor's (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`, `UND_ERR_SOCKET`...),
   * `EREFUSEDADDRESS` for an address the guard refuses, `ETIMEDOUT` for the fetch's own time
   * limit. Absent for an answer read as an error (a 5xx, a 429, a wall).
   */
  errorCode?: string;
  /**
   * A redirect target that was not requested, and why: its own robots.txt disallows it, or
   * cannot be read now (`not-found`; files and pages whose hops are judged).
   */
  refusedHop?: RefusedHop;
  /** What stood in the site's place, when something did (a bot wall, a page, a payment demand). */
  edge?: Edge;
  /**
   * How a wall or a payment demand answering for the file was read: `unreachable` (the
   * default; `outcome` is `error`) or `literal` (as Google reads its status and body).
   */
  edgeRead?: EdgeReading;
}

/** A redirect target that was not requested, and why. */
export interface RefusedHop {
  /** The target, as it would have been requested. */
  url: string;
  /** Why not, in words (`disallowed by its robots.txt, line 3`...). */
  reason: string;
}

/** How a wall answering for a robots.txt is read (see `RobotsClientOptions.challenge`). */
export type EdgeReading = 'unreachable' | 'literal';

/**
 * What the fetch layer keeps per origin: the fetch's result with its body as base64 and when
 * it was fetched, so that any store (memory, Redis) can hold it as plain JSON and answer again
 * (and re-parse) without the network.
 */
export interface CacheEntry extends FetchResult<string> {
  /** Format version: a store must not return entries of another version. */
  v: 1;
  /** The robots.txt URL fetched (the origin's `/robots.txt`). */
  robotsUrl: string;
  /** When this result was fetched (ms since the epoch, by the client's clock). */
  fetchedAt: number;
  /** Fresh until (for `error`: when to try again). */
  expiresAt: number;
  /** For `error`: the last good result, used while errors last. */
  lastGood?: Omit<CacheEntry, 'lastGood' | 'errorSince' | 'errors'>;
  /** For `error`: when the current run of errors began. */
  errorSince?: number;
  /** For `error`: consecutive errors so far (for backoff). */
  errors?: number;
}

/**
 * A place to keep cache entries, keyed by origin. Every implementation must pass the shared
 * contract suite (test/cache/store-contract.ts). Methods may reject when the backing service
 * fails; callers decide how to degrade.
 */
export interface CacheStore {
  /** The entry kept for `key`, if any (of the current format only). */
  get(key: string): Promise<CacheEntry | undefined>;
  /** Stores `entry`; the store may drop it after `ttlMs` (at the earliest). */
  set(key: string, entry: CacheEntry, ttlMs: number): Promise<void>;
  /** Forgets `key`'s entry. */
  delete(key: string): Promise<void>;
  /** Releases connections and timers; the store is unusable afterwards. */
  close(): Promise<void>;
  /**
   * Optional, for stores shared by many processes: takes the right to fetch `key` for
   * `ttlMs` (expiring by itself if the holder dies). Undefined when another holder has it;
   * the client then waits, with a bound, for that holder's result.
   */
  acquireLease?(key: string, ttlMs: number): Promise<Lease | undefined>;
  /**
   * Optional, for politeness shared by every process on the store: when `key`'s next turn
   * has come, takes it (the next one comes `intervalMs` later) and answers 0; otherwise
   * answers the milliseconds until it comes, taking nothing. Measured by the store's clock.
   */
  takeTurn?(key: string, intervalMs: number): Promise<number>;
  /** Optional: pushes `key`'s next turn to at least `ms` from now (a 429's `Retry-After`). */
  holdOff?(key: string, ms: number): Promise<void>;
}

/** The right to fetch one origin for the fleet, until released or expired. */
export interface Lease {
  /** Gives the right up, so that another process may fetch the origin. */
  release(): Promise<void>;
  /**
   * Optional: extends the lease to `ttlMs` from now, while its holder still works; false
   * when it has already expired or been taken by another (the holder goes on, unshared).
   */
  renew?(ttlMs: number): Promise<boolean>;
}

/** Whether a value read back from a store is an entry of the current format. */
export function isCurrentEntry(value: unknown): value is CacheEntry {
  return typeof value === 'object' && value !== null && (value as { v?: unknown }).v === 1;
}

/**
 * The copy an entry's verdicts are made from: its last good copy while fetching fails,
 * otherwise the entry itself.
 */
export function usedEntry(entry: CacheEntry): Omit<CacheEntry, 'lastGood'> {
  return entry.outcome === 'error' && entry.lastGood ? entry.lastGood : entry;
}
