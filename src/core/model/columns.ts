/** Up to this many values a plain array is cheapest; typed storage costs more to create. */
const PLAIN_LIMIT = 2048;

/** Values up to this many are appended to typed storage one by one, more natively. */
const COPIED_IN_A_LOOP = 192;

/**
 * Every empty column's storage, an `IntColumn`'s and a `GroupTable`'s alike: one array, never
 * written to (a column's first values replace it with their literal).
 */
export const NO_VALUES: never[] = [];

/**
 * A growable column of 32-bit integers. A plain array that grows to tens of thousands of
 * numbers is copied by the garbage collector as it grows, so past a few thousand values the
 * column moves to typed storage, which is not (and takes half the memory). A column told how
 * many values are coming (`reserve`) takes typed storage of that size at once: its values
 * are then copied in natively, and it needs no copy to be sealed.
 */
export class IntColumn {
  /** Plain storage starts as the literal of its first values (see `GroupTable`). */
  #data: number[] | Int32Array = NO_VALUES;
  #length = 0;
  /** `#data` is an Int32Array (which may have room past `length`). */
  #typed = false;

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    // Fields read once, before the branches (see `Tokenizer.skimLine`).
    const length = this.#length;
    let data = this.#data;
    if (!this.#typed && length < PLAIN_LIMIT) {
      if (length === 0) data = [value];
      else (data as number[]).push(value);
    } else {
      // Plain storage that is full moves to typed storage without its length being read.
      if (!this.#typed || length === data.length) data = this.#grown(length + 1);
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
    if (!this.#typed && length + 3 <= PLAIN_LIMIT) {
      if (length === 0) {
        data = [a, b, c];
      } else {
        // One value per push: the engine inlines a push of one.
        (data as number[]).push(a);
        (data as number[]).push(b);
        (data as number[]).push(c);
      }
    } else {
      if (!this.#typed || length + 3 > data.length) data = this.#grown(length + 3);
      data[length] = a;
      data[length + 1] = b;
      data[length + 2] = c;
    }
    this.#data = data;
    this.#length = length + 3;
  }

  /**
   * Room for `count` more values, in typed storage from now on: what is coming is known (the
   * byte lane's rules), so it is copied in natively (`appendFrom`) without growing.
   */
  reserve(count: number): void {
    if (this.#length + count > this.#data.length || !this.#typed) {
      this.#data = this.#grown(this.#length + count, true);
    }
  }

  /** `count` values of `source` from `from`, at once (copied natively into typed storage). */
  appendFrom(source: Int32Array, from: number, count: number): void {
    const length = this.#length;
    let data = this.#data;
    if (!this.#typed && length + count <= PLAIN_LIMIT) {
      // One rule (three cells) into an empty column, as in most groups of one rule: its literal.
      if (length === 0 && count === 3) {
        data = [source[from]!, source[from + 1]!, source[from + 2]!];
      } else {
        if (length === 0) data = [];
        for (let i = from; i < from + count; i++) (data as number[]).push(source[i]!);
      }
    } else {
      if (!this.#typed || length + count > data.length) data = this.#grown(length + count);
      // A run of a few rules is copied in a loop: `set` needs a view of the source made for it,
      // an object per run (a third of a kilobyte a file over the corpus).
      if (count <= COPIED_IN_A_LOOP) {
        for (let i = 0; i < count; i++) (data as Int32Array)[length + i] = source[from + i]!;
      } else {
        (data as Int32Array).set(source.subarray(from, from + count), length);
      }
    }
    this.#data = data;
    this.#length = length + count;
  }

  /**
   * Typed storage holding the values, with room for `need` (doubling, unless `exact`), made
   * the column's storage.
   */
  #grown(need: number, exact = false): Int32Array {
    const length = this.#length;
    const grown = new Int32Array(exact ? need : Math.max(length * 2, need));
    if (this.#typed) grown.set((this.#data as Int32Array).subarray(0, length));
    else for (let i = 0; i < length; i++) grown[i] = this.#data[i]!;
    this.#data = grown;
    this.#typed = true;
    return grown;
  }

  at(index: number): number {
    return this.#data[index]!;
  }

  /**
   * The storage itself, for loops over many cells: read once, it spares a call and a
   * private-field read per cell. Valid until the next push; typed storage may run past
   * `length`.
   */
  get cells(): ArrayLike<number> {
    return this.#data;
  }

  /** Gives back unused capacity once the column is complete. */
  seal(): void {
    // A full column has nothing to give back (an empty one that never grew is full).
    if (this.#data.length !== this.#length) this.#data = this.#data.slice(0, this.#length);
  }
}

/**
 * Takes each branch of a column's storage, typed ones included (a reservation, growth by a
 * value, by three and by a run, room given back), after enough plain calls that the engine
 * collects each method's feedback (from about its eighth call): most files never take the
 * typed branches, and the first that does would otherwise throw away the optimized parser
 * that inlined them (see `showRarePaths`, parse.ts). A few dozen calls, not a large body: a
 * process that only ever parses small files keeps its pace.
 */
export function showColumnPaths(): void {
  const run = new Int32Array([1, 2, 3, 4, 5, 6]);
  for (let i = 0; i < 10; i++) {
    const plain = new IntColumn();
    plain.push(i);
    plain.push3(i, i, i);
    plain.appendFrom(run, 0, run.length);
    plain.seal();
    // An empty column's first values: one rule's three cells, a run of them, three at once.
    new IntColumn().appendFrom(run, 0, 3);
    new IntColumn().appendFrom(run, 0, run.length);
    new IntColumn().push3(i, i, i);
  }
  for (let i = 0; i < 2; i++) {
    const typed = new IntColumn();
    typed.reserve(2);
    typed.push(1);
    typed.push(2);
    typed.push(3);
    typed.push3(4, 5, 6);
    typed.appendFrom(run, 0, run.length);
    typed.push(7);
    typed.seal();
  }
}
