import { usedEntry } from '../cache/internal.ts';
import { type CacheEntry } from '../cache/index.ts';
import type { RobotsTxt } from '../core/index.ts';

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
  private readonly entries = new Map<string, HotEntry>();
  private bytes = 0;

  constructor(
    private readonly maxOrigins: number,
    private readonly maxBytes: number,
  ) {}

  get(origin: string): HotEntry | undefined {
    return this.entries.get(origin);
  }

  /** Marks `hot` as the most recently used. */
  touch(origin: string, hot: HotEntry): void {
    this.entries.delete(origin);
    this.entries.set(origin, hot);
  }

  remember(origin: string, hot: Omit<HotEntry, 'robotsFetchedAt' | 'bytes'>): void {
    const used = usedEntry(hot.entry);
    this.drop(origin);
    const kept: HotEntry = { ...hot, robotsFetchedAt: used.fetchedAt, bytes: estimateBytes(hot) };
    this.entries.set(origin, kept);
    this.bytes += kept.bytes;
    while (
      this.entries.size > this.maxOrigins ||
      (this.bytes > this.maxBytes && this.entries.size > 1)
    ) {
      this.drop(this.entries.keys().next().value!);
    }
  }

  drop(origin: string): void {
    const dropped = this.entries.get(origin);
    if (!dropped) return;
    this.entries.delete(origin);
    this.bytes -= dropped.bytes;
  }

  /** Origins held, and their estimated bytes. */
  get usage(): { origins: number; bytes: number } {
    return { origins: this.entries.size, bytes: this.bytes };
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
