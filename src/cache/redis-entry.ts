/** repkit/cache/redis: the Redis store, shared by a fleet of crawlers (Node only). */
export {
  RedisStore,
  StoreUnavailableError,
  isStoreUnavailableError,
  type RedisStoreOptions,
} from './redis.ts';
