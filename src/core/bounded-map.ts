/** How a `BoundedMap` is bounded. */
export interface BoundedMapOptions<K, V> {
  /** Most entries kept. */
  maxEntries: number;
  /** Most weight kept, as `weigh` counts it. Default: unbounded. */
  maxWeight?: number;
  /** An entry's weight, taken once when it is set. Default: 0. */
  weigh?: (value: V, key: K) => number;
  /** Told of each entry the bounds push out (not of `delete`, `clear` or a replaced value). */
  onEvict?: (key: K, value: V) => void;
}

/**
 * A map bounded by count and weight, least recently used out: every table repkit keeps per
 * origin, host, crawler name or body is one of these, so that no caller can grow one without
 * end. `get` marks an entry used; `peek` does not. The entry just set always stays, however
 * heavy: a caller that must not keep an oversized value checks before it sets.
 */
export class BoundedMap<K, V> {
  readonly #values = new Map<K, V>();
  readonly #weights: Map<K, number> | undefined;
  readonly #maxEntries: number;
  readonly #maxWeight: number;
  readonly #weigh: ((value: V, key: K) => number) | undefined;
  readonly #onEvict: ((key: K, value: V) => void) | undefined;
  #weight = 0;
  /** The key last moved to the end of the order, while it is there (undefined: not known). */
  #newest: K | undefined;

  constructor(options: BoundedMapOptions<K, V>) {
    this.#maxEntries = Math.max(1, options.maxEntries);
    this.#maxWeight = options.maxWeight ?? Infinity;
    this.#weigh = options.weigh;
    this.#weights = options.weigh ? new Map() : undefined;
    this.#onEvict = options.onEvict;
  }

  get size(): number {
    return this.#values.size;
  }

  /** The weight held, as `weigh` counted each entry. */
  get weight(): number {
    return this.#weight;
  }

  has(key: K): boolean {
    return this.#values.has(key);
  }

  /** The value, marked as the most recently used. */
  get(key: K): V | undefined {
    const value = this.#values.get(key);
    if (value === undefined) return undefined;
    // Most recently used goes to the end of the map's order; the one already there stays
    // (a batch asks about one origin many times over).
    if (key !== this.#newest) {
      this.#values.delete(key);
      this.#values.set(key, value);
      this.#newest = key;
    }
    return value;
  }

  /** The value, its place in the order unchanged. */
  peek(key: K): V | undefined {
    return this.#values.get(key);
  }

  /** Sets `key` as the most recently used, then lets the least recently used go. */
  set(key: K, value: V): this {
    this.delete(key);
    this.#values.set(key, value);
    this.#newest = key;
    if (this.#weights) {
      const weight = this.#weigh!(value, key);
      this.#weights.set(key, weight);
      this.#weight += weight;
    }
    for (const [oldest, victim] of this.#values) {
      if (this.#values.size <= this.#maxEntries && this.#weight <= this.#maxWeight) break;
      if (oldest === key) break; // the entry just set stays
      this.delete(oldest);
      this.#onEvict?.(oldest, victim);
    }
    return this;
  }

  delete(key: K): boolean {
    if (!this.#values.delete(key)) return false;
    if (key === this.#newest) this.#newest = undefined;
    if (this.#weights) {
      this.#weight -= this.#weights.get(key)!;
      this.#weights.delete(key);
    }
    return true;
  }

  clear(): void {
    this.#values.clear();
    this.#newest = undefined;
    this.#weights?.clear();
    this.#weight = 0;
  }

  /** Keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.#values.keys();
  }
}
