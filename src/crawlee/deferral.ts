import type { Request } from 'crawlee';
import { DueHeap } from './due-heap.ts';

/** What of a request queue's storage client (Crawlee's public storage API) holding uses. */
interface QueueClient {
  deleteRequest?(id: string): Promise<unknown>;
  updateRequest(
    request: Record<string, unknown>,
    options?: { forefront?: boolean },
  ): Promise<unknown>;
}

/** What of a provider without a storage client (a `RequestList`) a release uses. */
interface Reclaiming {
  reclaimRequest(request: Request, options?: { forefront?: boolean }): Promise<unknown>;
}

interface Held {
  request: Request;
  /** Whether it goes back to the front of its queue if released. */
  forefront: boolean;
}

/** How many deferred requests a crawler holds at most, by default. */
export const MAX_HELD = 100_000;

/** How many hosts' next free slots are remembered before the past ones are dropped. */
const MAX_SLOTS = 10_000;

/**
 * Requests that may not go yet, held apart from Crawlee's queue until their turn.
 *
 * A deferred request is taken out of its request queue's storage (the crawl still counts it
 * as pending) and held here, ordered by when it may go: the crawler hands it
 * back itself when its host's turn comes (`takeDue`). The queue never sees it again until it
 * has been crawled, so a thousand deferred requests cost the queue nothing: Crawlee's
 * in-memory queue walks every entry it holds (an `await` for each locked one) on each refill
 * of its head, which made deferral by lock cost O(n²), and an idle crawl's CPU grow with n. Requests of one waiting host are given successive turns (the wait,
 * then one spacing each), so a host with thousands of queued URLs costs one admission per
 * turn. At most `maxHeld` are held: past that, the crawler takes nothing new from its queue
 * until one is handed back. When the crawler stops first (`stop()`, Ctrl-C, a timeout), the
 * held requests are put back in their queue (`release`), where a resumed crawl finds them.
 */
export class Deferrals {
  readonly #held = new DueHeap<Held>();
  /** Per host (origin): the time of the last turn given to a deferred request. */
  readonly #lastSlot = new Map<string, number>();

  constructor(
    private readonly warn: (message: string) => void,
    private readonly maxHeld = MAX_HELD,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many requests are held. */
  get size(): number {
    return this.#held.size;
  }

  /** Whether `maxHeld` requests are held: nothing more is taken from the queue. */
  get full(): boolean {
    return this.#held.size >= this.maxHeld;
  }

  /** Whether a held request's turn has come. */
  hasDue(): boolean {
    const at = this.#held.nextAt;
    return at !== undefined && at <= this.now();
  }

  /** The held request whose turn has come first, handed back to the crawler. */
  takeDue(): Request | undefined {
    return this.#held.takeDue(this.now())?.request;
  }

  /**
   * Takes `request`, just dequeued from `provider`, out of its queue and holds it for `ms`, or,
   * with `spacingMs`, for its own turn after the ones its host's other deferred requests were
   * given. Answers the ms it is held for.
   */
  async hold(provider: unknown, request: Request, ms: number, spacingMs?: number): Promise<number> {
    const now = this.now();
    const until = this.#turn(request, now + ms, now, spacingMs);
    const queue = queueClientOf(provider);
    if (queue && request.id) {
      try {
        // Out of the queue: deleted from its storage (a handled entry would still be walked
        // on every refill of the queue's head). After its turn the crawler marks it handled
        // or reclaims it, and either puts it back in the storage (an update inserts).
        if (typeof queue.deleteRequest === 'function') await queue.deleteRequest(request.id);
        else await queue.updateRequest({ ...request, handledAt: new Date(now).toISOString() });
      } catch (error) {
        this.warn(
          `could not take ${request.url} out of the queue (${String(error)}); it may be dequeued again`,
        );
      }
    }
    this.#held.push(until, { request, forefront: forefrontOf(request) });
    return until - now;
  }

  /** A request handed back whose turn was deferred again: held again (it is out of the queue). */
  holdAgain(request: Request, ms: number, spacingMs?: number): number {
    const now = this.now();
    const until = this.#turn(request, now + ms, now, spacingMs);
    this.#held.push(until, { request, forefront: forefrontOf(request) });
    return until - now;
  }

  /** Puts every held request back in its queue (or list), pending, and holds none. */
  async release(provider: unknown): Promise<void> {
    const queue = queueClientOf(provider);
    for (const held of this.#held.drain()) {
      try {
        if (queue) await queue.updateRequest({ ...held.request }, { forefront: held.forefront });
        else await (provider as Partial<Reclaiming>)?.reclaimRequest?.(held.request);
      } catch (error) {
        this.warn(`could not put ${held.request.url} back in the queue: ${String(error)}`);
      }
    }
    this.#lastSlot.clear();
  }

  /** The time `request` may go: `until`, or its host's next turn after the ones given. */
  #turn(request: Request, until: number, now: number, spacingMs?: number): number {
    if (spacingMs === undefined || spacingMs <= 0) return until;
    const origin = originOf(request.url);
    if (origin === undefined) return until;
    const last = this.#lastSlot.get(origin);
    if (last !== undefined && last + spacingMs > until) until = last + spacingMs;
    this.#lastSlot.set(origin, until);
    if (this.#lastSlot.size > MAX_SLOTS) {
      for (const [key, at] of this.#lastSlot) if (at < now) this.#lastSlot.delete(key);
    }
    return until;
  }
}

/**
 * The storage client of a request queue, or of the queue behind a list + queue tandem; none
 * for a `RequestList`, whose in-progress requests never come back by themselves.
 */
function queueClientOf(provider: unknown): QueueClient | undefined {
  const own = (provider as { client?: Partial<QueueClient> } | undefined)?.client;
  if (typeof own?.updateRequest === 'function') return own as QueueClient;
  const behind = (provider as { requestQueue?: { client?: Partial<QueueClient> } } | undefined)
    ?.requestQueue?.client;
  return typeof behind?.updateRequest === 'function' ? (behind as QueueClient) : undefined;
}

function forefrontOf(request: Request): boolean {
  return Boolean(
    (request.userData as { __crawlee?: { forefront?: boolean } } | undefined)?.__crawlee?.forefront,
  );
}

/** The origin of `url`, or undefined when it is not a URL. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
