import { BoundedMap } from '../core/internal.ts';

/** Clients whose budgets are remembered; the longest idle is forgotten first (full again). */
const MAX_CLIENTS = 10_000;

/** Bytes of fetched files a client may add to the store a minute, by default: 64 MiB. */
export const STORE_BYTES_PER_MINUTE = 64 * 1024 * 1024;

interface Bucket {
  tokens: number;
  bytes: number;
  at: number;
}

/**
 * Each client's budget of new origins: robots.txt fetches its requests may start (answers
 * from the cache, and fetches another request already started, cost nothing), and the bytes
 * those fetches add to the store. Two token buckets per client address, refilled each
 * minute: `perMinute` fetches, and `bytesPerMinute` bytes of files kept. A shared store then
 * grows by at most that many origins and bytes a minute per client, however its requests
 * (or the sites they name, serving 500 KiB files) are shaped. A request past either is
 * refused with 429 and the seconds until it fits again.
 */
export class OriginBudget {
  private readonly buckets = new BoundedMap<string, Bucket>({ maxEntries: MAX_CLIENTS });

  constructor(
    readonly perMinute: number,
    readonly bytesPerMinute: number = STORE_BYTES_PER_MINUTE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one new origin from `client`'s budget; false when it has none, or no bytes, left. */
  take(client: string): boolean {
    const bucket = this.refilled(client);
    if (bucket.tokens < 1 || bucket.bytes <= 0) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Charges `client` the bytes a fetch it started added to the store (it may go below 0). */
  charge(client: string, bytes: number): void {
    this.refilled(client).bytes -= bytes;
  }

  /** Which budget is spent: `bytes` when the bytes ran out, else `origins`. */
  spent(client: string): 'origins' | 'bytes' {
    return this.refilled(client).bytes <= 0 ? 'bytes' : 'origins';
  }

  /** Whole seconds until `client` may start one more fetch. */
  retryAfterSeconds(client: string): number {
    const bucket = this.refilled(client);
    const origins = 1 - bucket.tokens;
    const bytes = 1 - bucket.bytes;
    const wait = Math.max(
      origins <= 0 ? 0 : (origins * 60) / this.perMinute,
      bytes <= 0 ? 0 : (bytes * 60) / this.bytesPerMinute,
    );
    return Math.ceil(wait);
  }

  private refilled(client: string): Bucket {
    const now = this.now();
    let bucket = this.buckets.get(client);
    if (!bucket) {
      bucket = { tokens: this.perMinute, bytes: this.bytesPerMinute, at: now };
      this.buckets.set(client, bucket);
    }
    const minutes = (now - bucket.at) / 60_000;
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + minutes * this.perMinute);
    bucket.bytes = Math.min(this.bytesPerMinute, bucket.bytes + minutes * this.bytesPerMinute);
    bucket.at = now;
    return bucket;
  }
}
