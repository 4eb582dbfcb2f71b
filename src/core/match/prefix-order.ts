/**
 * The order a prefix index sorts its entries in: by literal prefix, then by pattern, both
 * compared as `<` compares strings; entries equal in both keep their order (stable).
 *
 * A comparison sort calling back into JavaScript cost about 1 µs an entry (30 ms for the
 * 25,000 rules of a large file, paid on the first checks of every parse). Here the first
 * characters of each prefix are packed into a number with the entry's place below them and
 * the numbers sorted natively; only runs whose packed characters tie go on to the next
 * characters, and a run small or deep enough is sorted by comparison. Prefixes are octet
 * strings; a character above 0xff sends its run to comparison, so the order stays exact.
 */

/** Octets packed per character. */
const CHAR_BITS = 8;
/** Runs this small are sorted by comparison: cheaper than packing them. */
const SMALL_RUN = 24;
/**
 * Runs still tied after this many rounds of packed characters are sorted by comparison: it
 * bounds the rounds (and the stack) whatever the prefixes share.
 */
const MAX_ROUNDS = 4;

/**
 * Entry positions `0..prefixes.length` in index order: by `prefixes[k]`, then
 * `patterns[k]`, ties in position order.
 */
export function prefixOrder(prefixes: readonly string[], patterns: readonly string[]): number[] {
  const order = prefixes.map((_, k) => k);
  orderRun(order, 0, order.length, sharedLength(prefixes), 0, prefixes, patterns);
  return order;
}

/** How many first characters every prefix shares (most begin with `/`): no key spends bits on them. */
function sharedLength(prefixes: readonly string[]): number {
  if (prefixes.length === 0) return 0;
  const first = prefixes[0]!;
  let shared = first.length;
  for (let k = 1; k < prefixes.length && shared > 0; k++) {
    const prefix = prefixes[k]!;
    let i = 0;
    const max = shared < prefix.length ? shared : prefix.length;
    while (i < max && prefix.charCodeAt(i) === first.charCodeAt(i)) i++;
    shared = i;
  }
  return shared;
}

/**
 * Orders `order[lo..hi)`, whose prefixes agree (or end) before `offset`, by the characters
 * from `offset` on.
 */
function orderRun(
  order: number[],
  lo: number,
  hi: number,
  offset: number,
  round: number,
  prefixes: readonly string[],
  patterns: readonly string[],
): void {
  const size = hi - lo;
  if (size < 2) return;
  if (size <= SMALL_RUN || round >= MAX_ROUNDS) {
    sortByComparison(order, lo, hi, prefixes, patterns);
    return;
  }
  // The run's place takes the low bits; as many whole characters as fit take the rest of
  // the 53 bits a number holds exactly.
  const placeBits = Math.ceil(Math.log2(size));
  const placeScale = 2 ** placeBits;
  const chars = Math.floor((53 - placeBits) / CHAR_BITS);
  const end = offset + chars;
  const keys = new Float64Array(size);
  let longer = false;
  for (let i = 0; i < size; i++) {
    const prefix = prefixes[order[lo + i]!]!;
    let key = 0;
    // A prefix that ends is padded with 0, below every character: it sorts first, as `<` does.
    for (let c = offset; c < end; c++) {
      const code = c < prefix.length ? prefix.charCodeAt(c) : 0;
      if (code > 0xff) {
        sortByComparison(order, lo, hi, prefixes, patterns);
        return;
      }
      key = key * 256 + code;
    }
    if (prefix.length > end) longer = true;
    keys[i] = key * placeScale + i;
  }
  keys.sort();
  const run = order.slice(lo, hi);
  for (let i = 0; i < size; i++) order[lo + i] = run[keys[i]! % placeScale]!;
  // Runs of equal characters: ordered by what follows, or by pattern if nothing does.
  for (let start = 0; start < size;) {
    const key = Math.floor(keys[start]! / placeScale);
    let stop = start + 1;
    while (stop < size && Math.floor(keys[stop]! / placeScale) === key) stop++;
    if (stop - start > 1) {
      if (longer) orderRun(order, lo + start, lo + stop, end, round + 1, prefixes, patterns);
      else sortByComparison(order, lo + start, lo + stop, prefixes, patterns);
    }
    start = stop;
  }
}

/** Sorts `order[lo..hi)` by prefix, then pattern, with a comparison (stable). */
function sortByComparison(
  order: number[],
  lo: number,
  hi: number,
  prefixes: readonly string[],
  patterns: readonly string[],
): void {
  if (hi - lo <= SMALL_RUN) {
    // Insertion sort in place: most runs are a few entries, and a copy, a sort and a
    // callback for each cost more than the comparisons.
    for (let i = lo + 1; i < hi; i++) {
      const entry = order[i]!;
      let j = i - 1;
      while (j >= lo && compareEntries(order[j]!, entry, prefixes, patterns) > 0) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = entry;
    }
    return;
  }
  const run = order.slice(lo, hi);
  run.sort((a, b) => compareEntries(a, b, prefixes, patterns));
  for (let i = 0; i < run.length; i++) order[lo + i] = run[i]!;
}

function compareEntries(
  a: number,
  b: number,
  prefixes: readonly string[],
  patterns: readonly string[],
): number {
  const pa = prefixes[a]!;
  const pb = prefixes[b]!;
  if (pa !== pb) return pa < pb ? -1 : 1;
  const xa = patterns[a]!;
  const xb = patterns[b]!;
  return xa < xb ? -1 : xa > xb ? 1 : 0;
}

/**
 * For each position of `sorted` (prefixes in index order), the last position of the nearest
 * group before its own whose prefix starts it, or -1: the chain a lookup walks.
 *
 * Every prefix in the index that starts a path also starts the greatest prefix not above the
 * path (anything sorting between a prefix of the path and the path extends that prefix), so
 * a lookup finds that one by one binary search and walks its chain, where it searched again
 * for each shorter prefix. Built in one pass with a stack of the current chain: each position
 * is pushed and popped once, each test a native `startsWith`.
 */
export function prefixParents(sorted: readonly string[]): Int32Array {
  const parents = new Int32Array(sorted.length);
  const chain: number[] = [];
  for (let k = 0; k < sorted.length; k++) {
    const prefix = sorted[k]!;
    if (k > 0 && sorted[k - 1] === prefix) {
      // Same group: same parent, and this is now the group's last position.
      parents[k] = parents[k - 1]!;
      chain[chain.length - 1] = k;
      continue;
    }
    while (chain.length > 0 && !prefix.startsWith(sorted[chain[chain.length - 1]!]!)) chain.pop();
    parents[k] = chain.length > 0 ? chain[chain.length - 1]! : -1;
    chain.push(k);
  }
  return parents;
}
