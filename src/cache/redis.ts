import { InvalidInputError, RepkitError } from '../core/index.ts';
import { redactUrl } from './redact.ts';
import { randomUUID } from 'node:crypto';
import { deflateBase64, inflateBase64 } from './compression.ts';
import { Breakers } from './redis-breaker.ts';
import { openRedis, type RedisConnection } from './redis-connection.ts';
import {
  HOLD_OFF_SCRIPT,
  RELEASE_SCRIPT,
  RENEW_SCRIPT,
  TAKE_TURN_SCRIPT,
} from './redis-scripts.ts';
import { MemoryStore, type MemoryStoreOptions } from './memory.ts';
import { isCurrentEntry, type CacheEntry, type CacheStore, type Lease } from './store.ts';

/** Where a `RedisStore` connects, and its bounds. */
export interface RedisStoreOptions {
  /** Default `redis://127.0.0.1:6379`. */
  url?: string;
  /**
   * A Redis Cluster instead of one server: some of its nodes (the rest are discovered). Every
   * key is used alone (entries, leases, turns), so keys and leases work across slots.
   */
  cluster?: {
    /** Nodes to start from. */
    rootNodes: readonly {
      /** A node's URL (`redis://10.0.0.5:7000`). */
      url: string;
    }[];
  };
  /** Key prefix, so that several applications can share a Redis. Default `repkit`. */
  prefix?: string;
  /** A Redis call slower than this counts as a failure; the fallback answers. Default 1 s. */
  timeoutMs?: number;
  /**
   * The breaker: after this many calls in a row to a node time out, the node counts as hung
   * and every call for its keys is answered by the fallback at once, without waiting, while
   * one probe (a PING every `timeoutMs`) decides when it is back. Default 3. On a cluster
   * each master has its own breaker: a hung master holds up only its own slots' keys.
   */
  breakAfterTimeouts?: number;
  /** Told when Redis becomes unreachable and when it is back. Default: `console.warn`. */
  onWarning?: (message: string) => void;
  /** Bounds of the per-process fallback cache used while Redis is down. */
  fallback?: MemoryStoreOptions;
}

/** Bumped when the entry format changes, so that old entries are never read as new ones. */
const FORMAT = 'v2';

/** The store behind `repkit/cache/redis`'s `RedisStore` (documented on that entry, where editors show it). */
export class RedisStore implements CacheStore {
  private readonly client: RedisConnection;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly fallback: MemoryStore;
  private readonly warn: (message: string) => void;
  private degraded = false;
  private closed = false;
  private readonly isCluster: boolean;
  /** When a call last failed (see markUp). */
  private lastFailure = 0;
  /** One per node: a hung node's calls go to the fallback until a probe is answered. */
  private readonly breakers: Breakers;
  /**
   * Entries written while Redis could not take them, with when each should expire: written
   * back (unless another process wrote one meanwhile) when Redis answers again, so that
   * what was fetched during an outage is not fetched again by every process after it.
   */
  private readonly unwritten = new Map<string, number>();
  /** Whether Redis has ever been ready; until then, operations wait for the first connection. */
  private everReady = false;
  private readonly firstConnection: Promise<void>;

  constructor(options: RedisStoreOptions = {}) {
    this.prefix = `${options.prefix ?? 'repkit'}:${FORMAT}`;
    this.timeoutMs = options.timeoutMs ?? 1_000;
    this.isCluster = options.cluster !== undefined;
    this.fallback = new MemoryStore(options.fallback);
    this.warn = options.onWarning ?? ((message) => console.warn(`repkit: ${message}`));
    if (options.url !== undefined && options.cluster !== undefined) {
      throw new InvalidInputError('options', 'RedisStore takes either url or cluster, not both');
    }
    if (options.cluster !== undefined && !(options.cluster.rootNodes?.length > 0)) {
      throw new InvalidInputError(
        'options.cluster.rootNodes',
        'RedisStore needs at least one node of the cluster',
      );
    }
    const shown = options.cluster
      ? `the cluster at ${options.cluster.rootNodes.map((n) => redactUrl(n.url)).join(', ')}`
      : `Redis at ${redactUrl(options.url ?? 'redis://127.0.0.1:6379')}`;
    let signalFirst: () => void = () => {};
    // The first connection's outcome, whichever comes first: operations made at start-up wait
    // for it (up to `timeoutMs`), so a fleet that starts together shares one fetch and logs no
    // outage that never was.
    this.firstConnection = new Promise<void>((done) => (signalFirst = done));
    const breakAfter = Math.max(1, options.breakAfterTimeouts ?? 3);
    this.breakers = new Breakers({
      breakAfter,
      probeEveryMs: this.timeoutMs,
      probe: async (_node, key) =>
        (await this.withinTimeout(() => this.client.pingNode(key))) === 'PONG',
      events: {
        opened: (node) =>
          this.markDown(
            `${this.isCluster ? `Redis node ${node}` : 'Redis'} did not answer ${breakAfter} ` +
              `calls in a row within ${this.timeoutMs} ms; using the per-process cache` +
              `${this.isCluster ? ' for its keys' : ''}, and probing it until it answers`,
          ),
        closed: () => this.markUp(),
      },
    });
    // Connecting happens in the background; if it fails, the fallback answers.
    this.client = openRedis(
      options.cluster
        ? { kind: 'cluster', rootNodes: options.cluster.rootNodes }
        : { kind: 'server', url: options.url ?? 'redis://127.0.0.1:6379' },
      {
        error: (error) => {
          signalFirst();
          this.markDown(
            `${shown} is unreachable (${error.message}); using the per-process cache until it is back`,
          );
        },
        ready: () => {
          signalFirst();
          this.everReady = true;
          this.markUp();
        },
      },
    );
  }

  /** Whether Redis answers right now (connected, and not hung: see `breakAfterTimeouts`). */
  get connected(): boolean {
    return this.client.isReady && !this.breakers.anyOpen;
  }

  /** Resolves when connected, or rejects after `timeoutMs` (for start-up checks and tests). */
  async ready(timeoutMs = 5_000): Promise<void> {
    const start = Date.now();
    while (!this.client.isReady) {
      if (Date.now() - start > timeoutMs) {
        throw new StoreUnavailableError(`Redis did not become ready within ${timeoutMs} ms`);
      }
      await new Promise((done) => setTimeout(done, 20));
    }
  }

  /** Round trip to Redis; false when it is down. */
  async ping(): Promise<boolean> {
    return (await this.attempt(undefined, () => this.client.ping())) === 'PONG';
  }

  /** The entry kept for `key`: from Redis, or from the fallback while Redis fails. */
  async get(key: string): Promise<CacheEntry | undefined> {
    const entryKey = this.entryKey(key);
    const raw = await this.attempt(entryKey, () => this.client.get(entryKey));
    if (raw === FAILED) return this.fallback.get(key);
    if (raw === null) return undefined;
    let value: unknown;
    try {
      value = unpacked(JSON.parse(raw));
    } catch {
      return undefined;
    }
    if (!isCurrentEntry(value)) return undefined;
    // Kept as what this process would have written: an outage then costs no fetch for an
    // origin this process has read, not only for those it fetched itself.
    await this.fallback.set(key, value, Math.max(0, value.expiresAt - Date.now()) + KEEP_READ_MS);
    return value;
  }

  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    await this.fallback.set(key, entry, ttlMs);
    const ttl = Math.max(1, Math.round(ttlMs));
    const entryKey = this.entryKey(key);
    const written = await this.attempt(entryKey, () =>
      this.client.set(entryKey, packed(entry), { PX: ttl }),
    );
    if (written === FAILED && this.unwritten.size < MAX_UNWRITTEN) {
      this.unwritten.set(key, Date.now() + ttl);
    } else if (written !== FAILED) this.unwritten.delete(key);
  }

  /** Forgets `key`'s entry, in Redis and in the fallback. */
  async delete(key: string): Promise<void> {
    await this.fallback.delete(key);
    const entryKey = this.entryKey(key);
    await this.attempt(entryKey, () => this.client.del(entryKey));
  }

  /**
   * Takes the fetch lease for `key` for `ttlMs` (it expires by itself if the holder dies).
   * Undefined when another process holds it. With Redis down every process fetches for itself.
   */
  async acquireLease(key: string, ttlMs: number): Promise<Lease | undefined> {
    const token = randomUUID();
    const leaseKey = this.redisKey('lease', key);
    const taken = await this.attempt(leaseKey, () =>
      this.client.set(leaseKey, token, { NX: true, PX: Math.max(1, Math.round(ttlMs)) }),
    );
    if (taken === null) return undefined;
    return {
      release: async () => {
        await this.attempt(leaseKey, () => this.client.evalOn(leaseKey, RELEASE_SCRIPT, [token]));
      },
      renew: async (ms: number) => {
        const ttl = String(Math.max(1, Math.round(ms)));
        const renewed = await this.attempt(leaseKey, () =>
          this.client.evalOn(leaseKey, RENEW_SCRIPT, [token, ttl]),
        );
        return renewed !== FAILED && Number(renewed) === 1;
      },
    };
  }

  /**
   * Takes `key`'s turn for the fleet if it has come (0), else says how long until it comes;
   * by Redis's clock. With Redis down, the per-process cache keeps turns for this process.
   */
  async takeTurn(key: string, intervalMs: number): Promise<number> {
    const interval = String(Math.max(0, Math.round(intervalMs)));
    const turnKey = this.redisKey('turn', key);
    const wait = await this.attempt(turnKey, () =>
      this.client.evalOn(turnKey, TAKE_TURN_SCRIPT, [interval]),
    );
    if (wait === FAILED) return this.fallback.takeTurn(key, intervalMs);
    return Number(wait);
  }

  /** Pushes `key`'s next turn to at least `ms` from now, for every process on this Redis. */
  async holdOff(key: string, ms: number): Promise<void> {
    await this.fallback.holdOff(key, ms);
    const wait = String(Math.max(0, Math.round(ms)));
    const turnKey = this.redisKey('turn', key);
    await this.attempt(turnKey, () => this.client.evalOn(turnKey, HOLD_OFF_SCRIPT, [wait]));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.breakers.stop();
    await this.fallback.close();
    // The connection closes gracefully when it is up, and is destroyed otherwise (see
    // openRedis); a close that fails destroys it.
    await this.client.close().catch(() => this.client.destroy());
  }

  private entryKey(key: string): string {
    return this.redisKey('entry', key);
  }

  /**
   * `<prefix>:<kind>:<key>`, with `{` and `}` of the key escaped (and `%`, so that escaping
   * stays one-to-one): a Redis Cluster hashes only what is inside the first `{...}` of a key,
   * so an origin such as `https://{x}.example` would otherwise choose its slot, and a
   * thousand such sites would share one.
   */
  private redisKey(kind: 'entry' | 'lease' | 'turn', key: string): string {
    const escaped = /[%{}]/.test(key)
      ? key.replaceAll('%', '%25').replaceAll('{', '%7B').replaceAll('}', '%7D')
      : key;
    return `${this.prefix}:${kind}:${escaped}`;
  }

  /**
   * Redis answers again. On a cluster, where calls to the other nodes' keys go on succeeding
   * while one node is away, only once no call has failed for CLUSTER_QUIET_MS: an outage is
   * one warning and one "again", not one per call that lands on a live node.
   */
  private markUp(): void {
    if (!this.degraded || this.closed || this.breakers.anyOpen) return;
    if (this.isCluster && Date.now() - this.lastFailure < CLUSTER_QUIET_MS) return;
    this.degraded = false;
    this.warn('Redis answers again; the shared cache is in use again');
    void this.writeBack();
  }

  /** Writes what the outage kept from Redis, where no other process has written meanwhile. */
  private async writeBack(): Promise<void> {
    for (const [key, until] of [...this.unwritten]) {
      if (this.degraded || this.closed) return;
      this.unwritten.delete(key);
      const ttl = Math.round(until - Date.now());
      const entry = ttl > 0 ? await this.fallback.get(key) : undefined;
      if (!entry) continue;
      const entryKey = this.entryKey(key);
      await this.attempt(entryKey, () =>
        this.client.set(entryKey, packed(entry), { PX: ttl, NX: true }),
      );
    }
  }

  private markDown(message: string): void {
    this.lastFailure = Date.now();
    if (this.degraded || this.closed) return;
    this.degraded = true;
    this.warn(message);
  }

  /**
   * Runs a Redis call for `key` (undefined: any node) with a time limit; FAILED (and a
   * warning) when Redis cannot answer.
   */
  private async attempt<T>(
    key: string | undefined,
    call: () => Promise<T>,
  ): Promise<T | typeof FAILED> {
    if (!this.client.isReady && !this.everReady && !this.closed) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.firstConnection,
        new Promise<void>((done) => (timer = setTimeout(done, this.timeoutMs))),
      ]);
      clearTimeout(timer);
    }
    if (!this.client.isReady) {
      this.markDown('Redis is not connected; using the per-process cache until it is back');
      return FAILED;
    }
    // A hung node (stopped, or its host frozen) keeps its connection open: see Breakers.
    const node = this.client.nodeOf(key);
    if (this.breakers.isOpen(node)) return FAILED;
    const result = await this.withinTimeout(call);
    if (result === TIMED_OUT) {
      if (!this.breakers.timedOut(node, key))
        this.markDown(
          `Redis did not answer within ${this.timeoutMs} ms; using the per-process cache`,
        );
      return FAILED;
    }
    if (result === FAILED) return FAILED;
    this.breakers.answered(node);
    this.markUp();
    return result;
  }

  /** `call`'s answer, TIMED_OUT after `timeoutMs`, or FAILED (and a warning) if it throws. */
  private async withinTimeout<T>(
    call: () => Promise<T>,
  ): Promise<T | typeof FAILED | typeof TIMED_OUT> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        call(),
        new Promise<typeof TIMED_OUT>((done) => {
          timer = setTimeout(() => done(TIMED_OUT), this.timeoutMs);
        }),
      ]);
    } catch (error) {
      this.markDown(`Redis call failed (${(error as Error).message}); using the per-process cache`);
      return FAILED;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * An entry as Redis keeps it: JSON, its bodies deflated (then base64), marked `deflated`. A
 * shared store is not an attacker's disk: a 500 KiB body of one repeated line takes a few
 * hundred bytes, not 680 KB of base64.
 */
function packed(entry: CacheEntry): string {
  const { body, lastGood } = entry;
  return JSON.stringify({
    ...entry,
    ...(body !== undefined ? { body: deflateBase64(body) } : {}),
    ...(lastGood?.body !== undefined
      ? { lastGood: { ...lastGood, body: deflateBase64(lastGood.body) } }
      : {}),
    deflated: true,
  });
}

/** The entry back from `packed` (an entry written unpacked, by hand or a test, as it is). */
function unpacked(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('deflated' in value)) return value;
  const { deflated: _deflated, ...entry } = value as CacheEntry & { deflated: unknown };
  if (typeof entry.body === 'string') entry.body = inflateBase64(entry.body);
  if (entry.lastGood && typeof entry.lastGood.body === 'string')
    entry.lastGood = { ...entry.lastGood, body: inflateBase64(entry.lastGood.body) };
  return entry;
}

const FAILED = Symbol('redis call failed');
/** How long past its freshness an entry read from Redis stays in the fallback (the stale window). */
const KEEP_READ_MS = 30 * 24 * 60 * 60 * 1000;
/** On a cluster, how long without a failed call before an outage counts as over. */
const CLUSTER_QUIET_MS = 5_000;
/** At most this many entries wait to be written back after an outage. */
const MAX_UNWRITTEN = 100_000;
const TIMED_OUT = Symbol('redis call timed out');

/** Behind `repkit/cache/redis`'s `StoreUnavailableError` (documented there). */
export class StoreUnavailableError extends RepkitError {
  constructor(message: string) {
    super('store-unavailable', message);
  }
}

/** Behind `repkit/cache/redis`'s `isStoreUnavailableError` (documented there). */
export function isStoreUnavailableError(error: unknown): error is StoreUnavailableError {
  return error instanceof StoreUnavailableError;
}
