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
    if (this.#length < PLAIN_LIMIT) {
      (this.#data as number[]).push(value);
    } else {
      if (this.#length === this.#data.length) {
        const grown = new Int32Array(this.#length * 2);
        grown.set(this.#data);
        this.#data = grown;
      }
      this.#data[this.#length] = value;
    }
    this.#length++;
  }

  /** Three values at once (a record of three cells). */
  push3(a: number, b: number, c: number): void {
    const length = this.#length;
    if (length + 3 <= PLAIN_LIMIT) {
      // One value per push: the engine inlines a push of one.
      const data = this.#data as number[];
      data.push(a);
      data.push(b);
      data.push(c);
    } else {
      let data = this.#data;
      if (length + 3 > data.length) {
        const grown = new Int32Array(Math.max(length * 2, length + 3));
        grown.set(data);
        this.#data = data = grown;
      }
      data[length] = a;
      data[length + 1] = b;
      data[length + 2] = c;
    }
    this.#length = length + 3;
  }

  at(index: number): number {
    return this.#data[index]!;
  }

  /** Gives back unused capacity once the column is complete. */
  seal(): void {
    this.#data = this.#data.slice(0, this.#length);
  }
}
