import type { CacheEntry } from '../../cache/index.ts';
import { usedEntry } from '../../cache/internal.ts';
import { BoundedMap } from '../../core/internal.ts';
import { parseTdmrep, type TdmrepFile } from '../../core/tdmrep-entry.ts';
import type { EntryCache } from './entry-cache.ts';
import type { TdmrepState } from './state.ts';

/** Bytes of a tdmrep.json read (real ones are a few hundred). */
const TDMREP_MAX_BYTES = 64 * 1024;
/** Parsed TDMRep files kept at hand: with the byte cap, a few MB at most. */
const TDMREP_PARSED = 256;

/**
 * Origins' TDMRep files (`/.well-known/tdmrep.json`), through the same entries as robots.txt
 * (same store, lifetimes, leases and error backoff) under `<origin>#tdmrep`, read up to 64
 * KiB, the last 256 parsed kept at hand.
 */
export class TdmrepFiles {
  readonly #entries: EntryCache;
  readonly #now: () => number;
  readonly #parsed = new BoundedMap<string, { entry: CacheEntry; file?: TdmrepFile }>({
    maxEntries: TDMREP_PARSED,
  });

  constructor(entries: EntryCache, now: () => number) {
    this.#entries = entries;
    this.#now = now;
  }

  /** `origin`'s file; `beforeHop` decides each redirect (see `RobotsClient.tdmrepFor`). */
  async for(
    origin: string,
    beforeHop: (url: string) => Promise<string | undefined>,
  ): Promise<TdmrepState> {
    const key = `${origin}#tdmrep`;
    const url = `${origin}/.well-known/tdmrep.json`;
    const hot = this.#parsed.get(key);
    if (hot && this.#now() < hot.entry.expiresAt) {
      return { url, entry: hot.entry, ...(hot.file ? { file: hot.file } : {}) };
    }
    const { entry } = await this.#entries.fresh(key, url, {
      maxBytes: TDMREP_MAX_BYTES,
      beforeHop,
    });
    const used = usedEntry(entry);
    const file =
      used.outcome === 'ok'
        ? parseTdmrep(new TextDecoder().decode(Buffer.from(used.body ?? '', 'base64')))
        : undefined;
    this.#parsed.set(key, { entry, ...(file ? { file } : {}) });
    return { url, entry, ...(file ? { file } : {}) };
  }
}
