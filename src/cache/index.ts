/**
 * repkit/cache: where the fetch layer keeps robots.txt results, and the stores for it.
 *
 * @module repkit/cache
 */
export type { CacheEntry, CacheStore, Lease, EdgeReading, RefusedHop } from './store.ts';
export { MemoryStore, type MemoryStoreOptions, type MemoryStoreStats } from './memory.ts';
