/**
 * repkit/cache/redis: the Redis store, shared by a fleet of crawlers (Node only). `redis` is an
 * optional peer dependency: without it, loading this entry fails with a `MissingPeerError`
 * that says to install it.
 *
 * @module repkit/cache/redis
 */
import { loadWithPeer } from '../core/internal.ts';
import type * as Store from './redis.ts';

const store: typeof Store = await loadWithPeer(
  'redis',
  'repkit/cache/redis',
  () => import('./redis.ts'),
);

/**
 * A cache store on Redis, shared by a fleet of crawlers: keys are namespaced and versioned
 * (`repkit:v2:entry:<origin>`), entries expire with the TTL the client gives (cache lifetime
 * plus the 30-day stale window), and `acquireLease` lets one process of many fetch an origin.
 *
 * If Redis is down or slow, nothing stops: every write also goes to a per-process memory
 * cache, reads fall back to it, a warning says so once per outage, and the client reconnects
 * by itself. No call rejects because of Redis.
 *
 * @example
 * ```ts
 * import { RobotsClient } from 'repkit/fetch';
 * import { RedisStore } from 'repkit/cache/redis';
 *
 * const store = new RedisStore({ url: 'redis://127.0.0.1:6379' });
 * await store.ready(); // throws StoreUnavailableError if Redis does not answer
 * const client = new RobotsClient({ userAgent: 'ExampleBot/1.0', store });
 * ```
 * @class
 */
export const RedisStore = store.RedisStore;
export type RedisStore = Store.RedisStore;
/**
 * Thrown by `RedisStore.ready()` when Redis does not answer within the time given (code
 * `store-unavailable`).
 *
 * @class
 */
export const StoreUnavailableError = store.StoreUnavailableError;
export type StoreUnavailableError = Store.StoreUnavailableError;
/**
 * Whether `error` is a `StoreUnavailableError`.
 *
 * @function
 */
export const isStoreUnavailableError: (error: unknown) => error is StoreUnavailableError =
  store.isStoreUnavailableError;
export type { RedisStoreOptions } from './redis.ts';
