import { isCurrentEntry, type CacheEntry, type CacheStore } from './store.ts';

export interface MemoryStoreOptions {
  /** Most entries kept; the least recently used go first. Default 10,000. */
  maxEntries?: number;
  /** Most bytes kept (bodies and headers, roughly as stored). Default 64 MiB. */
  maxBytes?: number;
  /** The clock expiry is measured by (ms); tests pass their own. Default `Date.now`. */
  now?: () => number;
}

interface Slot {
  json: string;
  expiresAt: number;
}

/**
 * The default store: entries in process memory, bounded by count and bytes, least recently
 * used out. Entries are kept serialized, as any shared store would keep them, so nothing
 * live leaks between callers and sizes are real.
 */
export class MemoryStore implements CacheStore {
  private readonly slots = new Map<string, Slot>();
  private bytes = 0;
  /** Per key, when its next turn comes (`takeTurn`, `holdOff`). */
  private readonly turns = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.now = options.now ?? Date.now;
  }

  /** Entries currently held. */
  get size(): number {
    return this.slots.size;
  }

  /** Bytes currently held (two per character of the stored JSON). */
  get byteSize(): number {
    return this.bytes;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    if (slot.expiresAt <= this.now()) {
      this.remove(key, slot);
      return undefined;
    }
    // Most recently used goes to the end of the map's order.
    this.slots.delete(key);
    this.slots.set(key, slot);
    const value: unknown = JSON.parse(slot.json);
    return isCurrentEntry(value) ? value : undefined;
  }

  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    const old = this.slots.get(key);
    if (old) this.remove(key, old);
    const slot = { json: JSON.stringify(entry), expiresAt: this.now() + Math.max(0, ttlMs) };
    if (slot.json.length * 2 > this.maxBytes) return; // larger than the whole store
    this.slots.set(key, slot);
    this.bytes += slot.json.length * 2;
    for (const [oldest, victim] of this.slots) {
      if (this.slots.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.remove(oldest, victim);
    }
  }

  async delete(key: string): Promise<void> {
    const slot = this.slots.get(key);
    if (slot) this.remove(key, slot);
  }

  async takeTurn(key: string, intervalMs: number): Promise<number> {
    const now = this.now();
    const next = this.turns.get(key) ?? 0;
    if (next > now) return next - now;
    this.setTurn(key, now + Math.max(0, intervalMs), now);
    return 0;
  }

  async holdOff(key: string, ms: number): Promise<void> {
    const now = this.now();
    const until = now + Math.max(0, ms);
    if (until > (this.turns.get(key) ?? 0)) this.setTurn(key, until, now);
  }

  async close(): Promise<void> {
    this.turns.clear();
    this.slots.clear();
    this.bytes = 0;
  }

  /** Keeps turns still to come, at most `maxEntries` of them (the oldest set go first). */
  private setTurn(key: string, at: number, now: number): void {
    this.turns.delete(key);
    if (at <= now) return;
    this.turns.set(key, at);
    for (const oldest of this.turns.keys()) {
      if (this.turns.size <= this.maxEntries) break;
      this.turns.delete(oldest);
    }
  }

  private remove(key: string, slot: Slot): void {
    this.slots.delete(key);
    this.bytes -= slot.json.length * 2;
  }
}
