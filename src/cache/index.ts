/** repkit/cache: where the fetch layer keeps robots.txt results, and the stores for it. */
export { type CacheEntry, type CacheStore, type Lease } from './store.ts';
export { MemoryStore, type MemoryStoreOptions } from './memory.ts';
