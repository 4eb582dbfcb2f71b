import { BoundedMap } from '../core/internal.ts';
import { deflateBody, inflateBody } from './compression.ts';
import { isCurrentEntry, type CacheEntry, type CacheStore } from './store.ts';

/** Bounds of a `MemoryStore`. */
export interface MemoryStoreOptions {
  /** Most entries kept; the least recently used go first. Default 200,000. */
  maxEntries?: number;
  /**
   * Most bytes kept, counted as held: bodies compressed, everything else one byte per
   * character, and a fixed overhead per entry and per body (what the engine spends on them).
   * Default 128 MiB: about 80,000 origins of the corpus mix (3.7 KB bodies on average, 0.8 KB
   * compressed, 1.6 KB an entry in all).
   */
  maxBytes?: number;
  /** The clock expiry is measured by (ms); tests pass their own. Default `Date.now`. */
  now?: () => number;
}

interface Slot {
  /** The entry without its bodies, as JSON. */
  meta: string;
  /** The body, and the last good copy's, deflated (raw DEFLATE); absent when there is none. */
  body?: Uint8Array;
  lastGoodBody?: Uint8Array;
  expiresAt: number;
  /** What the slot counts against `maxBytes`. */
  bytes: number;
}

/**
 * What a slot costs beyond its strings' characters and its bodies' bytes: the slot, the map
 * entry, the key and meta strings' headers (measured on Node 20: 310 bytes), and each body's
 * typed array and backing store (about 250 bytes each).
 */
const SLOT_OVERHEAD = 320;
const BODY_OVERHEAD = 256;

/** What the store holds and has had to let go of (see `MemoryStore.stats`). */
export interface MemoryStoreStats {
  /** Entries held. */
  entries: number;
  /** Bytes held, counted as `maxBytes` counts them. */
  bytes: number;
  /** Entries pushed out by the bounds while still fresh: each may cost a fetch again. */
  evictions: number;
}

/**
 * The default store: entries in process memory, bounded by count and bytes, least recently
 * used out. Entries are kept serialized, as any shared store would keep them, so nothing
 * live leaks between callers; bodies are kept compressed (a robots.txt compresses about
 * five to one), so that a crawler's working set of tens of thousands of origins stays
 * fetched once.
 */
export class MemoryStore implements CacheStore {
  private readonly slots: BoundedMap<string, Slot>;
  private evicted = 0;
  /** Per key, when its next turn comes (`takeTurn`, `holdOff`); the oldest set go first. */
  private readonly turns: BoundedMap<string, number>;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 200_000;
    this.maxBytes = options.maxBytes ?? 128 * 1024 * 1024;
    this.now = options.now ?? Date.now;
    this.slots = new BoundedMap({
      maxEntries,
      maxWeight: this.maxBytes,
      weigh: (slot) => slot.bytes,
      onEvict: (_key, victim) => {
        if (victim.expiresAt > this.now()) this.evicted++;
      },
    });
    this.turns = new BoundedMap({ maxEntries });
  }

  /** Entries currently held. */
  get size(): number {
    return this.slots.size;
  }

  /** Bytes currently held, as `maxBytes` counts them. */
  get byteSize(): number {
    return this.slots.weight;
  }

  /** Entries and bytes held, and how many fresh entries the bounds pushed out. */
  get stats(): MemoryStoreStats {
    return { entries: this.slots.size, bytes: this.slots.weight, evictions: this.evicted };
  }

  /** The entry kept for `key`, unless it has expired. */
  async get(key: string): Promise<CacheEntry | undefined> {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    if (slot.expiresAt <= this.now()) {
      this.slots.delete(key);
      return undefined;
    }
    const value: unknown = JSON.parse(slot.meta);
    if (!isCurrentEntry(value)) return undefined;
    if (slot.body) value.body = inflateBody(slot.body);
    if (slot.lastGoodBody && value.lastGood) {
      value.lastGood.body = inflateBody(slot.lastGoodBody);
    }
    return value;
  }

  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    this.slots.delete(key);
    const { body, lastGood, ...rest } = entry;
    const meta: Record<string, unknown> = { ...rest };
    let lastGoodBody: Uint8Array | undefined;
    if (lastGood) {
      const { body: goodBody, ...good } = lastGood;
      meta['lastGood'] = good;
      if (goodBody !== undefined) lastGoodBody = deflateBody(goodBody);
    }
    const slot: Slot = {
      meta: JSON.stringify(meta),
      ...(body !== undefined ? { body: deflateBody(body) } : {}),
      ...(lastGoodBody ? { lastGoodBody } : {}),
      expiresAt: this.now() + Math.max(0, ttlMs),
      bytes: 0,
    };
    slot.bytes =
      SLOT_OVERHEAD +
      key.length +
      slot.meta.length +
      (slot.body ? BODY_OVERHEAD + slot.body.length : 0) +
      (slot.lastGoodBody ? BODY_OVERHEAD + slot.lastGoodBody.length : 0);
    if (slot.bytes > this.maxBytes) return; // larger than the whole store
    this.slots.set(key, slot);
  }

  /** Forgets `key`'s entry. */
  async delete(key: string): Promise<void> {
    this.slots.delete(key);
  }

  async takeTurn(key: string, intervalMs: number): Promise<number> {
    const now = this.now();
    const next = this.turns.peek(key) ?? 0;
    if (next > now) return next - now;
    this.setTurn(key, now + Math.max(0, intervalMs), now);
    return 0;
  }

  async holdOff(key: string, ms: number): Promise<void> {
    const now = this.now();
    const until = now + Math.max(0, ms);
    if (until > (this.turns.peek(key) ?? 0)) this.setTurn(key, until, now);
  }

  async close(): Promise<void> {
    this.turns.clear();
    this.slots.clear();
  }

  /** Keeps turns still to come, at most `maxEntries` of them. */
  private setTurn(key: string, at: number, now: number): void {
    if (at <= now) this.turns.delete(key);
    else this.turns.set(key, at);
  }
}
