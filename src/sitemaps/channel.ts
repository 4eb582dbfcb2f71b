/**
 * Bytes handed from a fetch (which pushes them as they arrive) to a reader (which pulls them
 * when it is ready): the fetch waits while a few chunks are unread, so a slow reader slows the
 * download instead of filling memory, and a reader that stops ends the fetch.
 */

/** Chunks waiting before the fetch is made to wait. */
const ROOM = 4;

export class Channel implements AsyncIterable<Uint8Array> {
  readonly #queue: Uint8Array[] = [];
  #wakeReader: (() => void) | undefined;
  #wakeWriter: (() => void) | undefined;
  #ended = false;
  #closed = false;

  /** For the fetch: the next chunk; resolves when there is room, rejects once the reader stopped. */
  async push(chunk: Uint8Array): Promise<void> {
    if (this.#closed) throw new Error('the sitemap reader stopped');
    this.#queue.push(chunk);
    this.#wake();
    while (this.#queue.length >= ROOM && !this.#closed) {
      await new Promise<void>((resolve) => (this.#wakeWriter = resolve));
    }
    if (this.#closed) throw new Error('the sitemap reader stopped');
  }

  /** For the fetch: nothing more comes. */
  end(): void {
    this.#ended = true;
    this.#wake();
  }

  /** For the reader: it takes nothing more (the fetch's next push rejects). */
  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
    const writer = this.#wakeWriter;
    this.#wakeWriter = undefined;
    writer?.();
  }

  #wake(): void {
    const reader = this.#wakeReader;
    this.#wakeReader = undefined;
    reader?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const chunk = this.#queue.shift();
      if (chunk !== undefined) {
        const writer = this.#wakeWriter;
        this.#wakeWriter = undefined;
        writer?.();
        yield chunk;
        continue;
      }
      if (this.#ended || this.#closed) return;
      await new Promise<void>((resolve) => (this.#wakeReader = resolve));
    }
  }
}
