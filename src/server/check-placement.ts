import { usedEntry } from '../cache/internal.ts';
import { BoundedMap } from '../core/internal.ts';
import type { RobotsState } from '../fetch/index.ts';

/** Files up to this size are always checked on the event loop. */
const LARGE_BODY = 64 * 1024;
/**
 * What a large file may spend on the event loop: once, for its one-time costs (the first
 * check and the one that builds the prefix index took 1.8 and 5.8 ms on a 150 KB real file,
 * more while the engine is cold), and per check after that (the same file's later checks take
 * about 7 µs).
 */
const ONCE_MS = 50;
const PER_CHECK_MS = 0.05;
/** Large files measured (least recently used out: a forgotten one is measured again). */
const MAX_FILES = 10_000;

/** A large file's time on the event loop, or `worker` once its checks go to the workers. */
type Measured = { ms: number; checks: number } | 'worker';

/**
 * Where the checks of a file run, decided from what they cost here. A check is a few µs on
 * nearly every real file, large ones included, and a worker task costs far more than that:
 * the body sent to the thread and a hop each way (the service bench's 150 KB row). But a
 * hostile file of up to 500 KiB can make one check take about 20 ms (the worst cases of the
 * core bench), and that must not hold the event loop request after request.
 *
 * So files up to 64 KiB are checked on the event loop. A larger file is checked there too,
 * each check timed, while its checks have cost at most 50 ms plus 50 µs a check in all; past
 * that its checks go to the worker threads (which keep their own parsed copy) for every
 * request, while the same fetch of the file is in use. The event loop spends at most that,
 * and one check more, on any fetched file, however the requests about it are shaped.
 */
export class CheckPlacement {
  readonly #files = new BoundedMap<string, Measured>({ maxEntries: MAX_FILES });

  /** @param onceMs the event-loop time a large file may take once (0: its second check goes to the workers). */
  constructor(private readonly onceMs = ONCE_MS) {}

  /** The file's key (origin and fetch time, as the workers keep it), or undefined: a small file. */
  key(state: RobotsState): string | undefined {
    if (!state.robots || state.robots.bytes.read <= LARGE_BODY) return undefined;
    return `${state.location.origin} ${usedEntry(state.entry).fetchedAt}`;
  }

  /** Whether the file's checks go to the workers. */
  onWorker(key: string): boolean {
    return this.#files.peek(key) === 'worker';
  }

  /** Counts a check of the file on the event loop, `ms` long; true when the file goes to the workers now. */
  timed(key: string, ms: number): boolean {
    const measured = this.#files.get(key);
    if (measured === 'worker') return true;
    const spent = (measured?.ms ?? 0) + ms;
    const checks = (measured?.checks ?? 0) + 1;
    if (spent > this.onceMs + checks * PER_CHECK_MS) {
      this.#files.set(key, 'worker');
      return true;
    }
    if (measured) {
      measured.ms = spent;
      measured.checks = checks;
    } else {
      this.#files.set(key, { ms: spent, checks });
    }
    return false;
  }
}
