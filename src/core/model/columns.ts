/** Up to this many values a plain array is cheapest; typed storage costs more to create. */
const PLAIN_LIMIT = 2048;

/**
 * A growable column of 32-bit integers. A plain array that grows to tens of thousands of
 * numbers is copied by the garbage collector as it grows, so past a few thousand values the
 * column moves to typed storage, which is not (and takes half the memory).
 */
export class IntColumn {
  #data: number[] | Int32Array = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    // Fields read once, before the branches (see `Tokenizer.skimLine`).
    const length = this.#length;
    let data = this.#data;
    if (length < PLAIN_LIMIT) {
      (data as number[]).push(value);
    } else {
      if (length === data.length) {
        const grown = new Int32Array(length * 2);
        grown.set(data);
        data = grown;
      }
      data[length] = value;
    }
    // Stored on every push, not on the rare growth branch alone (see above): a store there
    // would have no type feedback when the engine first optimizes a caller.
    this.#data = data;
    this.#length = length + 1;
  }

  /** Three values at once (a record of three cells). */
  push3(a: number, b: number, c: number): void {
    const length = this.#length;
    let data = this.#data;
    if (length + 3 <= PLAIN_LIMIT) {
      // One value per push: the engine inlines a push of one.
      (data as number[]).push(a);
      (data as number[]).push(b);
      (data as number[]).push(c);
    } else {
      if (length + 3 > data.length) {
        const grown = new Int32Array(Math.max(length * 2, length + 3));
        grown.set(data);
        data = grown;
      }
      data[length] = a;
      data[length + 1] = b;
      data[length + 2] = c;
    }
    this.#data = data;
    this.#length = length + 3;
  }

  /** `count` values of `source` from `from`, at once (copied natively once the column is typed). */
  appendFrom(source: Int32Array, from: number, count: number): void {
    const length = this.#length;
    let data = this.#data;
    if (length + count <= PLAIN_LIMIT) {
      for (let i = from; i < from + count; i++) (data as number[]).push(source[i]!);
    } else {
      if (length + count > data.length) {
        const grown = new Int32Array(Math.max(length * 2, length + count));
        grown.set(data);
        data = grown;
      }
      (data as Int32Array).set(source.subarray(from, from + count), length);
    }
    this.#data = data;
    this.#length = length + count;
  }

  /** Replaces the value at `index` (below `length`). */
  set(index: number, value: number): void {
    this.#data[index] = value;
  }

  at(index: number): number {
    return this.#data[index]!;
  }

  /**
   * The storage itself, for loops over many cells: read once, it spares a call and a
   * private-field read per cell. Valid until the next push.
   */
  get cells(): ArrayLike<number> {
    return this.#data;
  }

  /** Gives back unused capacity once the column is complete. */
  seal(): void {
    // An empty column never grew: nothing to give back.
    if (this.#length > 0) this.#data = this.#data.slice(0, this.#length);
  }
}
