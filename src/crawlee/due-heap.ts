/**
 * Items ordered by the time they are due: the earliest is read and taken in O(log n), so
 * holding n deferred requests costs O(log n) per request, whatever n is.
 */
export class DueHeap<T> {
  readonly #at: number[] = [];
  readonly #items: T[] = [];

  get size(): number {
    return this.#items.length;
  }

  /** When the earliest item is due (undefined when empty). */
  get nextAt(): number | undefined {
    return this.#at[0];
  }

  push(at: number, item: T): void {
    let i = this.#items.length;
    this.#at.push(at);
    this.#items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#at[parent]! <= at) break;
      this.#move(parent, i);
      i = parent;
    }
    this.#at[i] = at;
    this.#items[i] = item;
  }

  /** Takes the earliest item when it is due at `now`. */
  takeDue(now: number): T | undefined {
    if (this.#items.length === 0 || this.#at[0]! > now) return undefined;
    const first = this.#items[0]!;
    const lastAt = this.#at.pop()!;
    const last = this.#items.pop()!;
    const n = this.#items.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= n) break;
        const right = left + 1;
        const child = right < n && this.#at[right]! < this.#at[left]! ? right : left;
        if (this.#at[child]! >= lastAt) break;
        this.#move(child, i);
        i = child;
      }
      this.#at[i] = lastAt;
      this.#items[i] = last;
    }
    return first;
  }

  /** Takes every item, in no particular order. */
  drain(): T[] {
    const all = this.#items.splice(0);
    this.#at.length = 0;
    return all;
  }

  #move(from: number, to: number): void {
    this.#at[to] = this.#at[from]!;
    this.#items[to] = this.#items[from]!;
  }
}
