import type { Request } from 'crawlee';

/** What of Crawlee's request queue a deferral uses (`RequestQueue`, v2, and its client). */
interface LockingQueue {
  client: {
    deleteRequestLock(id: string, options?: { forefront?: boolean }): Promise<unknown>;
    prolongRequestLock(
      id: string,
      options: { lockSecs: number; forefront?: boolean },
    ): Promise<unknown>;
  };
}

/** What of any request provider the timer fallback uses. */
interface ReclaimingQueue {
  reclaimRequest(request: Request, options: { forefront: boolean }): Promise<unknown>;
}

/** How many hosts' next free slots are remembered before the past ones are dropped. */
const MAX_SLOTS = 10_000;

/**
 * Requests that may not go yet, left in Crawlee's queue until they may.
 *
 * With Crawlee's request queue (v2, the default), a deferred request is not held at all: its
 * lock in the queue is set to end when it may go, so the queue itself keeps it out of sight
 * (and the crawl unfinished) until then, and this process keeps no timer and no object for
 * it. Requests of one waiting host are given successive turns (the wait, then one spacing
 * each): each comes back about when it can go, so a host with thousands of queued URLs costs
 * one admission per turn, not thousands. Other providers (a `RequestList`) get the timer
 * Crawlee's own `sameDomainDelaySecs` uses.
 */
export class Deferrals {
  /** Per host (origin): the time of the last turn given to a deferred request. */
  readonly #lastSlot = new Map<string, number>();
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(private readonly warn: (message: string) => void) {}

  /**
   * Puts `request` back for `ms`, or, with `spacingMs`, for its own turn after the ones its
   * host's other deferred requests were given. Answers the ms it was put back for.
   */
  async putBack(queue: unknown, request: Request, ms: number, spacingMs?: number): Promise<number> {
    const now = Date.now();
    let until = now + ms;
    if (spacingMs !== undefined && spacingMs > 0) {
      const origin = originOf(request.url);
      const last = origin === undefined ? undefined : this.#lastSlot.get(origin);
      if (last !== undefined && last + spacingMs > until) until = last + spacingMs;
      if (origin !== undefined) this.#remember(origin, until, now);
    }
    const forefront = Boolean(
      (request.userData as { __crawlee?: { forefront?: boolean } })?.__crawlee?.forefront,
    );
    if (isLocking(queue) && request.id) {
      try {
        // The lock ends at `until`: ending it first makes the new one count from now.
        await queue.client.deleteRequestLock(request.id, { forefront });
        await queue.client.prolongRequestLock(request.id, {
          lockSecs: (until - Date.now()) / 1000,
          forefront,
        });
        return until - now;
      } catch (error) {
        this.warn(`could not defer ${request.url} in the queue (${String(error)}); holding it`);
      }
    }
    this.#hold(queue as ReclaimingQueue, request, until - now, forefront);
    return until - now;
  }

  /** Crawlee's way for providers without locks: a timer per request. */
  #hold(queue: ReclaimingQueue, request: Request, ms: number, forefront: boolean): void {
    if (typeof queue?.reclaimRequest !== 'function') return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      Promise.resolve(queue.reclaimRequest(request, { forefront })).catch((error: unknown) =>
        this.warn(`could not put ${request.url} back: ${String(error)}`),
      );
    }, ms);
    this.#timers.add(timer);
  }

  #remember(origin: string, slot: number, now: number): void {
    this.#lastSlot.set(origin, slot);
    if (this.#lastSlot.size <= MAX_SLOTS) return;
    for (const [key, at] of this.#lastSlot) if (at < now) this.#lastSlot.delete(key);
  }

  /** Stops the timers of held requests (the queue keeps the deferred ones). */
  clear(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#lastSlot.clear();
  }
}

function isLocking(queue: unknown): queue is LockingQueue {
  const client = (queue as { client?: Partial<LockingQueue['client']> } | undefined)?.client;
  return (
    typeof client?.deleteRequestLock === 'function' &&
    typeof client?.prolongRequestLock === 'function'
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
