import type { CacheEntry, CacheStore, Lease } from '../../cache/index.ts';
import type { EdgeReading } from '../../cache/internal.ts';
import { entryFromFetch, readEdge, renewedEntry, storeLifetime, validatorsOf } from './entries.ts';
import { FetchBudgetError } from '../errors.ts';
import type { HttpOptions, RobotsHttp } from '../net/robots-http.ts';
import type { CachePolicy } from './lifetimes.ts';

/** One robots.txt fetch, as `onFetch` reports it. */
export interface FetchReport {
  /** The robots.txt fetched. */
  robotsUrl: string;
  /** What it came to: a file, none (4xx), or an error (5xx, 429, network). */
  outcome: CacheEntry['outcome'];
  /** 0 when no response arrived. */
  status: number;
  /** How long the fetch took. */
  durationMs: number;
  /** What went wrong, if anything did. */
  error?: string;
  /** The failure's code, when no response came (see `FetchResult.errorCode`). */
  errorCode?: string;
  /** It was a conditional request the server answered 304: the copy held was renewed. */
  notModified?: true;
}

/** How a fleet shares fetches through its store's leases (see `RobotsClientOptions.fleet`). */
export interface FleetTiming {
  leaseTtlMs: number;
  waitMs: number;
  pollMs: number;
}

/** The longest wait between looks for another process's result. */
const MAX_POLL_MS = 1_000;

export interface EntryCacheOptions {
  store: CacheStore;
  http: RobotsHttp;
  /** The request settings every fetch starts from (a call may lower `maxBytes`). */
  request: Pick<
    HttpOptions,
    'userAgent' | 'maxBytes' | 'maxRedirects' | 'timeoutMs' | 'requestHeaders'
  >;
  /** How a wall or a payment demand answering for a file is read. */
  edgeReading: EdgeReading;
  policy: CachePolicy;
  now: () => number;
  fleet: FleetTiming;
  onStoreError: (error: unknown, operation: 'get' | 'set') => void;
  onFetch: ((fetch: FetchReport) => void) | undefined;
}

/** A fresh entry, and whether this call (or one it joined) fetched it. */
export interface FreshEntry {
  entry: CacheEntry;
  fetched: boolean;
  /** The body as read, when this fetch read one: parsed as is, not back from base64. */
  body?: Uint8Array;
}

/** What a fetch stored, with the body it read. */
interface Stored {
  entry: CacheEntry;
  body?: Uint8Array;
}

/**
 * The entries of the files a client fetches (robots.txt, tdmrep.json), by store key: read
 * from the store while fresh, else fetched once however many ask, in this process (single
 * flight) and in the fleet (the store's leases), and stored with Google's lifetimes. A store
 * that fails is gone around: a read that fails is a miss, a write that fails is dropped,
 * each reported to `onStoreError`.
 */
export class EntryCache {
  readonly #options: EntryCacheOptions;
  readonly #inflight = new Map<string, Promise<Stored>>();

  constructor(options: EntryCacheOptions) {
    this.#options = options;
  }

  /**
   * The entry for `key` (the file at `url`), fresh and read to at least `maxBytes`: from the
   * store, or fetched. `beforeHop` decides each redirect (see `RobotsHttp.fetch`); `mayFetch`
   * is asked before a fetch of this call's own starts (not when it joins one in flight), and
   * false refuses it with `FetchBudgetError`.
   */
  async fresh(
    key: string,
    url: string,
    options: {
      maxBytes?: number;
      beforeHop?: (url: string) => Promise<string | undefined>;
      mayFetch?: () => boolean;
    } = {},
  ): Promise<FreshEntry> {
    const { maxBytes = this.#options.request.maxBytes, beforeHop, mayFetch } = options;
    const cached = await this.get(key);
    if (cached && this.#options.now() < cached.expiresAt && readsEnough(cached, maxBytes)) {
      return { entry: cached, fetched: false };
    }
    let pending = this.#inflight.get(key);
    if (!pending) {
      if (mayFetch && !mayFetch()) throw new FetchBudgetError(url);
      pending = this.#fetchAndStore(key, url, cached, maxBytes, beforeHop).finally(() =>
        this.#inflight.delete(key),
      );
      this.#inflight.set(key, pending);
    }
    const { entry, body } = await pending;
    return { entry, fetched: true, ...(body ? { body } : {}) };
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    try {
      return await this.#options.store.get(key);
    } catch (error) {
      this.#options.onStoreError(error, 'get');
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#options.store.delete(key);
  }

  async #set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    try {
      await this.#options.store.set(key, entry, ttlMs);
    } catch (error) {
      this.#options.onStoreError(error, 'set');
    }
  }

  async #fetchAndStore(
    key: string,
    url: string,
    previous: CacheEntry | undefined,
    maxBytes: number,
    beforeHop?: (url: string) => Promise<string | undefined>,
  ): Promise<Stored> {
    const { fleet, now, policy } = this.#options;
    let lease: Lease | undefined;
    if (this.#options.store.acquireLease) {
      // Fleet-wide single flight: whoever takes the lease fetches; the others wait for it.
      const deadline = Date.now() + fleet.waitMs;
      let pause = fleet.pollMs;
      for (;;) {
        lease = await this.#tryLease(key);
        // Also after taking the lease: its last holder may have just stored the result.
        const entry = await this.get(key);
        const newer = entry && entry.fetchedAt > (previous?.fetchedAt ?? -Infinity);
        if (newer && now() < entry.expiresAt && readsEnough(entry, maxBytes)) {
          await lease?.release().catch(() => {});
          return { entry };
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
          () => void lease.renew!(fleet.leaseTtlMs).catch(() => false),
          fleet.leaseTtlMs / 3,
        )
      : undefined;
    renewal?.unref();
    try {
      const started = performance.now();
      // A stale whole copy with validators is asked about conditionally (Google's crawlers
      // revalidate with ETag and Last-Modified): unchanged, it costs a 304 and no body.
      const held = readsEnough(previous, maxBytes) ? validatorsOf(previous) : undefined;
      const fetched = await this.#options.http.fetch(url, {
        ...this.#options.request,
        maxBytes,
        ...(beforeHop ? { beforeHop } : {}),
        ...(held ? { conditional: held } : {}),
      });
      const result = readEdge(fetched, this.#options.edgeReading);
      this.#options.onFetch?.({
        robotsUrl: url,
        outcome: result.outcome,
        status: result.status,
        durationMs: performance.now() - started,
        ...(result.error ? { error: result.error } : {}),
        ...(result.errorCode ? { errorCode: result.errorCode } : {}),
        ...(result.notModified ? { notModified: true } : {}),
      });
      const entry =
        result.notModified && previous
          ? renewedEntry(previous, result, now(), policy)
          : entryFromFetch(url, result, previous, now(), policy);
      await this.#set(key, entry, storeLifetime(entry, now(), policy));
      return { entry, ...(result.body ? { body: result.body } : {}) };
    } finally {
      clearInterval(renewal);
      await lease?.release().catch(() => {});
    }
  }

  async #tryLease(key: string): Promise<Lease | undefined> {
    try {
      return await this.#options.store.acquireLease!(key, this.#options.fleet.leaseTtlMs);
    } catch (error) {
      // A store that cannot lease: fetch as if we held it.
      this.#options.onStoreError(error, 'set');
      return { release: async () => {} };
    }
  }
}

/**
 * Whether an entry read its body far enough for a reader with limit `maxBytes`: a body cut
 * by a smaller limit (another member of the fleet, sharing the store) may miss a rule past
 * the cut, so that reader fetches the file again. A cut body is as long as the limit that
 * cut it.
 */
function readsEnough(entry: CacheEntry | undefined, maxBytes: number): boolean {
  if (!entry) return false;
  // A failing fetch's last good copy is what there is until the site answers again.
  return entry.outcome !== 'ok' || !entry.truncated || base64Bytes(entry.body ?? '') >= maxBytes;
}

/** Bytes a base64 text holds. */
function base64Bytes(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}
