import { BoundedMap } from '../core/internal.ts';

/** How many hosts' next send times are remembered (least recently used out). */
const MAX_HOSTS = 10_000;

/**
 * A host's Crawl-delay kept where the request goes out, not only where it was admitted.
 *
 * Admission takes the host's turn (shared by the fleet through the store), but Crawlee may
 * send an admitted request much later: its first HTTP request takes seconds to set up, and
 * requests admitted a Crawl-delay apart then reached the site together (four pages in 26 ms
 * with `Crawl-delay: 1`). So each send also waits until a Crawl-delay after this process's
 * last send to the host. Admission lets about one request per turn through, so at most a few
 * wait here at once.
 */
export class SendSpacing {
  /** Per host (origin): the earliest time the next request may go out. */
  readonly #next = new BoundedMap<string, number>({ maxEntries: MAX_HOSTS });

  /**
   * Resolves when a request to `origin` may go out, `spacingMs` after the one before it;
   * the slot is taken at once, so requests asking together go one spacing apart.
   */
  async send(origin: string, spacingMs: number): Promise<void> {
    if (!(spacingMs > 0)) return;
    const now = Date.now();
    const at = Math.max(now, this.#next.peek(origin) ?? 0);
    this.#next.set(origin, at + spacingMs);
    if (at > now) await new Promise((done) => setTimeout(done, at - now));
  }
}
