/**
 * `read(item)` for each item, up to `ahead` of them in flight at once, the results yielded
 * in the items' order. A directory's files are read this way: one file at a time, the
 * reading waited on the file system's round trips (stat, open, read, close), and a scan of a
 * directory sat idle half the time.
 *
 * `read` must not reject (each read says in its result what went wrong): a read still in
 * flight when the caller stops early settles unwatched. At most `ahead` results are held
 * besides the one the caller has.
 * @throws RangeError for an `ahead` that is not a positive integer.
 * @example
 * for await (const size of readAhead(names, 16, (name) => sizeOf(name))) total += size;
 */
export async function* readAhead<Item, Result>(
  items: Iterable<Item>,
  ahead: number,
  read: (item: Item) => Promise<Result>,
): AsyncGenerator<Result> {
  if (!Number.isSafeInteger(ahead) || ahead < 1) {
    throw new RangeError(`ahead must be a positive integer, got ${ahead}`);
  }
  const pending: Promise<Result>[] = [];
  const iterator = items[Symbol.iterator]();
  let more = true;
  const fill = () => {
    while (more && pending.length < ahead) {
      const next = iterator.next();
      if (next.done) more = false;
      else pending.push(read(next.value));
    }
  };
  fill();
  while (pending.length > 0) {
    const result = await pending.shift()!;
    // The next read starts before this result is handed over, so the caller's work on it
    // overlaps the reads.
    fill();
    yield result;
  }
}
