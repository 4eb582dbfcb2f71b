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
  /** Per host (origin): its Crawl-delay as last admitted, and when the next request may go. */
  readonly #hosts = new BoundedMap<string, { spacingMs: number; nextAt: number }>({
    maxEntries: MAX_HOSTS,
  });

  /** A request to `origin` was admitted with the host's Crawl-delay `spacingMs`. */
  admitted(origin: string, spacingMs: number): void {
    const host = this.#hosts.get(origin);
    if (host) host.spacingMs = spacingMs;
    else if (spacingMs > 0) this.#hosts.set(origin, { spacingMs, nextAt: 0 });
  }

  /**
   * Resolves when a request to `origin` may go out, its Crawl-delay after the one before it;
   * the slot is taken at once, so requests asking together go one spacing apart.
   */
  async send(origin: string): Promise<void> {
    const host = this.#hosts.peek(origin);
    if (!host || !(host.spacingMs > 0)) return;
    const now = Date.now();
    const at = Math.max(now, host.nextAt);
    host.nextAt = at + host.spacingMs;
    if (at > now) await new Promise((done) => setTimeout(done, at - now));
  }
}
