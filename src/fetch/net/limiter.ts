/**
 * At most `total` tasks at once, and at most `perKey` for one key (an origin), in the order
 * asked; at most `maxWaiting` wait, beyond which `run` answers `refused()` at once. Used for
 * page fetches (bounded work and memory however many callers ask) and DNS lookups.
 */
export class Limiter {
  #running = 0;
  readonly #runningPerKey = new Map<string, number>();
  readonly #waiting: { key: string; start: () => void }[] = [];

  constructor(
    private readonly total: number,
    private readonly perKey: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(key: string, task: () => Promise<T>, refused: () => T): Promise<T> {
    if (this.#mayStart(key)) this.#take(key);
    else {
      if (this.#waiting.length >= this.maxWaiting) return refused();
      // Its place is taken for it when it starts (see #next).
      await new Promise<void>((start) => this.#waiting.push({ key, start }));
    }
    try {
      return await task();
    } finally {
      this.#give(key);
      this.#next();
    }
  }

  #mayStart(key: string): boolean {
    return this.#running < this.total && (this.#runningPerKey.get(key) ?? 0) < this.perKey;
  }

  #take(key: string): void {
    this.#running++;
    this.#runningPerKey.set(key, (this.#runningPerKey.get(key) ?? 0) + 1);
  }

  #give(key: string): void {
    this.#running--;
    const left = this.#runningPerKey.get(key)! - 1;
    if (left > 0) this.#runningPerKey.set(key, left);
    else this.#runningPerKey.delete(key);
  }

  /** Starts the waiters that may start, first come first: a busy key does not hold the others. */
  #next(): void {
    for (let i = 0; i < this.#waiting.length && this.#running < this.total;) {
      const waiter = this.#waiting[i]!;
      if (!this.#mayStart(waiter.key)) {
        i++;
        continue;
      }
      this.#waiting.splice(i, 1);
      this.#take(waiter.key);
      waiter.start();
    }
  }
}
