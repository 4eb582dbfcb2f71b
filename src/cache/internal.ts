/**
 * What repkit's other areas use of the cache and users do not: not a package entry, and not
 * part of the public surface.
 */
export { usedEntry, type FetchResult, type EdgeReading } from './store.ts';
export { redactUrl } from './redact.ts';
export type { MemoryStoreStats } from './memory.ts';
