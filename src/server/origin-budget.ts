import { BoundedMap } from '../core/internal.ts';

/** Clients whose budgets are remembered; the longest idle is forgotten first (full again). */
const MAX_CLIENTS = 10_000;

/**
 * Each client's budget of new origins: robots.txt fetches its requests may start (answers
 * from the cache, and fetches another request already started, cost nothing). A token
 * bucket per client address, `perMinute` deep and refilled at `perMinute` a minute: a shared
 * store then grows by at most that many origins a minute per client, however its requests
 * are shaped. A request past it is refused with 429 and the seconds until one more fits.
 */
export class OriginBudget {
  private readonly buckets = new BoundedMap<string, { tokens: number; at: number }>({
    maxEntries: MAX_CLIENTS,
  });

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one new origin from `client`'s budget; false when it has none left. */
  take(client: string): boolean {
    const bucket = this.refilled(client);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Whole seconds until `client` may start one more fetch. */
  retryAfterSeconds(client: string): number {
    const missing = 1 - this.refilled(client).tokens;
    return missing <= 0 ? 0 : Math.ceil((missing * 60) / this.perMinute);
  }

  private refilled(client: string): { tokens: number; at: number } {
    const now = this.now();
    let bucket = this.buckets.get(client);
    if (!bucket) {
      bucket = { tokens: this.perMinute, at: now };
      this.buckets.set(client, bucket);
    }
    const earned = ((now - bucket.at) / 60_000) * this.perMinute;
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + earned);
    bucket.at = now;
    return bucket;
  }
}
