/**
 * repkit/cache/redis: the Redis store, shared by a fleet of crawlers (Node only). `redis` is an
 * optional peer dependency: without it, loading this entry fails with a `MissingPeerError`
 * that says to install it.
 */
import { loadWithPeer } from '../core/internal.ts';
import type * as Store from './redis.ts';

const store: typeof Store = await loadWithPeer(
  'redis',
  'repkit/cache/redis',
  () => import('./redis.ts'),
);

export const RedisStore = store.RedisStore;
export type RedisStore = Store.RedisStore;
export const StoreUnavailableError = store.StoreUnavailableError;
export type StoreUnavailableError = Store.StoreUnavailableError;
export const isStoreUnavailableError = store.isStoreUnavailableError;
export type { RedisStoreOptions } from './redis.ts';
