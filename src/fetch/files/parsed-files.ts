import { usedEntry } from '../../cache/internal.ts';
import { type CacheEntry } from '../../cache/index.ts';
import type { RobotsTxt } from '../../core/index.ts';
import { BoundedMap } from '../../core/internal.ts';

/** An origin's entry in use, with its parsed file. */
export interface HotEntry {
  entry: CacheEntry;
  /** The verdicts come from the entry's last good copy (the fetch is failing). */
  stale: boolean;
  robots?: RobotsTxt;
  /** fetchedAt of the body `robots` was parsed from. */
  robotsFetchedAt: number;
  /** Its estimated size (see `estimateBytes`). */
  bytes: number;
}

/**
 * The parsed files kept at hand, by origin: at most `maxOrigins`, and about `maxBytes` as
 * `estimateBytes` counts them; the least recently used go first.
 */
export class ParsedFiles {
  private readonly entries: BoundedMap<string, HotEntry>;

  constructor(maxOrigins: number, maxBytes: number) {
    this.entries = new BoundedMap({
      maxEntries: maxOrigins,
      maxWeight: maxBytes,
      weigh: (hot) => hot.bytes,
    });
  }

  /** The origin's entry, without marking it used (see `touch`). */
  get(origin: string): HotEntry | undefined {
    return this.entries.peek(origin);
  }

  /** Marks the origin's entry as the most recently used. */
  touch(origin: string): void {
    this.entries.get(origin);
  }

  remember(origin: string, hot: Omit<HotEntry, 'robotsFetchedAt' | 'bytes'>): void {
    const used = usedEntry(hot.entry);
    this.entries.set(origin, {
      ...hot,
      robotsFetchedAt: used.fetchedAt,
      bytes: estimateBytes(hot),
    });
  }

  drop(origin: string): void {
    this.entries.delete(origin);
  }

  /** Origins held, and their estimated bytes. */
  get usage(): { origins: number; bytes: number } {
    return { origins: this.entries.size, bytes: this.entries.weight };
  }
}

/**
 * A hot entry's memory, from the sizes that dominate it, measured on the corpus with the
 * parse, the index of a checked crawler and the entry's base64 bodies: about five times the
 * body's bytes (the text, its patterns and index), the base64 copies, and a fixed overhead.
 */
function estimateBytes(hot: Omit<HotEntry, 'robotsFetchedAt' | 'bytes'>): number {
  const base64 = (hot.entry.body?.length ?? 0) + (hot.entry.lastGood?.body?.length ?? 0);
  const parsed = hot.robots ? 5 * hot.robots.bytes.read + 64 * hot.robots.lineCount : 0;
  return 2_048 + base64 + parsed;
}
