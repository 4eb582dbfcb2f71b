import type { CacheEntry } from '../../cache/index.ts';
import { usedEntry } from '../../cache/internal.ts';
import { parse, type ProfileName, type RobotsTxt } from '../../core/index.ts';
import { InvalidUrlError } from '../errors.ts';
import { locate, type RobotsLocation } from '../net/location.ts';
import type { EntryCache } from './entry-cache.ts';
import type { HotEntry, ParsedFiles } from './parsed-files.ts';
import type { RobotsState } from './state.ts';

/**
 * Each origin's robots.txt state: the entry in use kept with its parsed file until it
 * expires, so that most checks touch neither the store nor the parser; else the entry from
 * the store or a fetch (see `EntryCache`), parsed once.
 */
export class OriginStates {
  constructor(
    private readonly entries: EntryCache,
    private readonly hot: ParsedFiles,
    private readonly now: () => number,
    private readonly parsing: { profile: ProfileName; maxBytes: number },
  ) {}

  /** The state for `url`'s origin, fetched or from the store when none is fresh at hand. */
  async stateFor(url: string, options: { mayFetch?: () => boolean }): Promise<RobotsState> {
    const location = locate(url);
    if (location.origin.startsWith('ftp:')) {
      throw new InvalidUrlError(
        url,
        'fetching robots.txt over ftp is not supported (robotsUrl() gives its location)',
      );
    }
    const origin = location.origin;
    const hot = this.hot.get(origin);
    if (hot && this.isFresh(hot)) return this.hotState(location, hot);
    const { entry, fetched, body } = await this.entries.fresh(origin, location.robotsUrl, options);
    const used = usedEntry(entry);
    const stale = used !== entry;
    const source = stale ? 'stale' : fetched ? 'fetched' : 'cache';
    // A body just read is parsed as read; a stale copy's comes back from the entry.
    const robots =
      used.outcome === 'ok'
        ? this.parsedFor(hot, used, used === entry ? body : undefined)
        : undefined;
    this.hot.remember(origin, { entry, stale, ...(robots ? { robots } : {}) });
    return { location, entry, source, ...(robots ? { robots } : {}) };
  }

  /** The fresh state at hand for `url`'s origin, or undefined (see `ClientSeam.cachedState`). */
  cachedState(url: string): RobotsState | undefined {
    const location = locate(url);
    const hot = this.hot.get(location.origin);
    return hot && this.isFresh(hot) ? this.hotState(location, hot) : undefined;
  }

  /** A fresh entry for `origin` is at hand: checks need neither the store, a fetch nor DNS. */
  freshAt(origin: string): boolean {
    const hot = this.hot.get(origin);
    return hot !== undefined && this.isFresh(hot);
  }

  /** What the parsed-file map holds: origins, and their estimated bytes. */
  get usage(): { origins: number; bytes: number } {
    return this.hot.usage;
  }

  /** Forgets `origin`'s state at hand and in the store. */
  async forget(origin: string): Promise<void> {
    this.hot.drop(origin);
    await this.entries.delete(origin);
  }

  private hotState(location: RobotsLocation, hot: HotEntry): RobotsState {
    this.hot.touch(location.origin);
    const state: RobotsState = {
      location,
      entry: hot.entry,
      source: hot.stale ? 'stale' : 'cache',
    };
    if (hot.robots) state.robots = hot.robots;
    return state;
  }

  /**
   * The parsed file for `entry`, reusing the one in use when the body is the same fetch;
   * `read` is the body as it was just read, when it was.
   */
  private parsedFor(
    hot: HotEntry | undefined,
    entry: Omit<CacheEntry, 'lastGood'>,
    read?: Uint8Array,
  ): RobotsTxt {
    if (hot?.robots && hot.robotsFetchedAt === entry.fetchedAt) return hot.robots;
    return parse(read ?? Buffer.from(entry.body ?? '', 'base64'), this.parsing);
  }

  private isFresh(hot: HotEntry): boolean {
    return this.now() < hot.entry.expiresAt;
  }
}
