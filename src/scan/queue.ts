/**
 * Where a scan's inputs come from: the inputs given to this process (`LocalQueue`), or a
 * Redis Stream many processes share (`RedisQueue`, redis-queue.ts). Each input is leased:
 * taken by one reader, done once its rows are committed.
 */
import type { ScanInput } from './inputs.ts';

/** An input taken to be read. */
export interface Lease {
  input: ScanInput;
  /** Taken over from a reader that stopped (a Redis Stream's idle entry claimed). */
  claimed: boolean;
  /** Says the input's rows are committed: no one reads it again. */
  done(): Promise<void>;
  /** Gives the input back unfinished (this reader failed on it), for another to take. */
  release(): Promise<void>;
}

/** A scan's inputs, leased one at a time. */
export interface InputQueue {
  /** The next input, or undefined once none is left (none waiting, none being read). */
  next(): Promise<Lease | undefined>;
  close(): Promise<void>;
}

/** The inputs given to this process, in order. */
export class LocalQueue implements InputQueue {
  readonly #inputs: ScanInput[];

  constructor(inputs: readonly ScanInput[]) {
    this.#inputs = [...inputs];
  }

  next(): Promise<Lease | undefined> {
    const input = this.#inputs.shift();
    if (!input) return Promise.resolve(undefined);
    return Promise.resolve({
      input,
      claimed: false,
      done: () => Promise.resolve(),
      release: () => Promise.resolve(),
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
