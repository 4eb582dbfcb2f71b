import { matchesPattern } from './wildcard.ts';
import { LONG_PATH, PathChars } from './path-chars.ts';
import { literalPrefix } from './pattern.ts';
import type { IndexedRules } from './indexed-rules.ts';

/** 256 unset entries, the list `unsetList` copies from (packed, of any value). */
const UNSET: unknown[] = [undefined, undefined, undefined, undefined];
while (UNSET.length < 256) UNSET.push(...UNSET);

/**
 * `size` unset entries, in the one kind of array the engine keeps for lists of anything
 * (packed, of any value: what `map` makes when the index is sorted). A `[]` literal starts
 * as a list of small integers and `new Array(size)` as a holey one: an index's lists then
 * came in three kinds, and each kind first met after the code reading them was optimized
 * threw that code away (about six times in a cold pass over the largest files).
 */
function unsetList<T>(size: number): T[] {
  // Copied from a list made once (one native copy); doubled by native copies past it, not
  // pushed one by one (an index of 60,000 aliases cost milliseconds).
  if (size <= UNSET.length) return UNSET.slice(0, size) as T[];
  let list = UNSET;
  while (list.length * 2 <= size) list = list.concat(list);
  if (list.length < size) list = list.concat(list.slice(0, size - list.length));
  return list as T[];
}

/** What an index holds until its first pattern is made: shared, never written to. */
const NO_PATTERNS: string[] = unsetList(0);
const NO_WILD: boolean[] = unsetList(0);

/** Below this many rules a linear scan beats sorting, and needs no memory of its own. */
const LINEAR_LIMIT = 16;
/** Values up to this long are matched where they stand in the text (`matchInPlace`). */
const IN_PLACE_LIMIT = 64;

/**
 * What the long path being checked holds, learned as its wildcard patterns ask: one for
 * every index, made on the first long path. What it learns is the path's alone (its
 * remembered prefix is compared by its text), and a check runs to its end before another
 * begins; an index of its own was a third of what a file's first check allocates. It keeps
 * the last long path and its positions alive until another replaces them.
 */
let held: PathChars | undefined;
/** The path `held` was made for: the same path checked again (one comparison) reuses it. */
let heldFor: string | undefined;

/**
 * Positions matched by the last linear scan (see `scan`), read before another scan begins:
 * one list for every index, as `held` is, reused from check to check.
 */
const scanned: number[] = [];

/**
 * The rules of one selection (the groups that apply to one crawler), ready for matching.
 *
 * Entries are first scanned linearly: a plain rule test is `path.startsWith(pattern)`.
 * Once a large selection has been asked about often enough to pay for it (about as many
 * scans as sorting costs comparisons), its entries are sorted by literal prefix (the text
 * before the first `*`): a lookup then finds the rules whose prefix the path starts with
 * by walking down the chain of the path's prefixes with binary searches, so thousands of
 * rules cost a few comparisons per URL, while a crawler that asks a few questions per site
 * never pays for a sort. An entry id is `i` for rule `i`'s pattern, `~i` (negative) for
 * the pattern derived from rule `i` (Google's index.html alias).
 */
export class RuleIndex implements MatchIndex {
  readonly size: number;
  /** Entry ids in index order; undefined while they are the rules `first..first+size`. */
  private ids: number[] | undefined;
  private readonly first: number;
  /**
   * Per entry: its pattern, and whether it needs more than a prefix test; empty until a
   * pattern is first made (plain values matched in place never make one).
   */
  private patterns: string[] = NO_PATTERNS;
  private wild: boolean[] = NO_WILD;
  /** Literal prefixes in sorted order, once sorted. */
  private prefixes: string[] | undefined;
  /** Linear scans left before the entries are sorted. */
  private scansBeforeSort: number;

  /**
   * @param ids entry ids (copied), or undefined for the plain rules `first..first + size`.
   * @param plainInPlace the profile keeps plain values as they are (see `IndexedRules.matchInPlace`):
   *   until the index is sorted they are matched where they stand, and make no pattern.
   */
  constructor(
    private readonly table: IndexedRules,
    ids: readonly number[] | undefined,
    private readonly plainInPlace: boolean,
    first = 0,
    size = ids?.length ?? 0,
  ) {
    this.ids = ids?.slice();
    this.first = first;
    this.size = size;
    this.scansBeforeSort = size > LINEAR_LIMIT ? Math.ceil(Math.log2(size)) : Infinity;
  }

  /** An index of the plain rules `[first, end)` (one group's, most often). */
  static ofRange(
    table: IndexedRules,
    first: number,
    end: number,
    plainInPlace: boolean,
  ): RuleIndex {
    return new RuleIndex(table, undefined, plainInPlace, first, end - first);
  }

  /**
   * An index of index.html aliases: `ids[k]` is `~id` for rule `id`, `patterns[k]` its alias
   * (made when the aliases were looked for, so not made again). Both arrays are kept as given.
   */
  static ofAliases(table: IndexedRules, ids: number[], patterns: string[]): RuleIndex {
    const index = new RuleIndex(table, undefined, false, 0, ids.length);
    index.ids = ids;
    index.patterns = patterns;
    // Aliases always end in `$`.
    index.wild = patterns.map(() => true);
    return index;
  }

  /** Entry `k`'s pattern, made on first need, with whether it is a wildcard pattern. */
  private patternAt(k: number): string {
    if (this.patterns.length === 0 && this.size > 0) {
      // Made per entry when first needed, all of them when sorting.
      this.patterns = unsetList(this.size);
      this.wild = unsetList(this.size);
    }
    let pattern = this.patterns[k];
    if (pattern === undefined) {
      // Only a rule's own pattern is made here: an index of aliases is given its patterns.
      pattern = this.table.pattern(this.idAt(k));
      this.patterns[k] = pattern;
      this.wild[k] = this.table.isWildPattern(pattern);
    }
    return pattern;
  }

  /**
   * Every entry's pattern, in a loop of its own: over a large index the engine compiles the
   * loop while it runs, and compiled inside `sort` it had no feedback for the code after the
   * loop, which it then threw away at each sort (nine times in a cold pass over the largest
   * files).
   */
  private makeEveryPattern(): void {
    for (let k = 0; k < this.size; k++) this.patternAt(k);
  }

  /** Sorts the entries by literal prefix (see the class comment). */
  private sort(): void {
    this.makeEveryPattern();
    const order = this.patterns.map((_, k) => k);
    const prefixes = this.patterns.map((pattern, k) =>
      this.wild[k] ? literalPrefix(pattern, true) : pattern,
    );
    // By prefix, then by pattern: identical patterns end up side by side, and are tested once.
    order.sort((a, b) => {
      const pa = prefixes[a]!;
      const pb = prefixes[b]!;
      if (pa !== pb) return pa < pb ? -1 : 1;
      const xa = this.patterns[a]!;
      const xb = this.patterns[b]!;
      return xa < xb ? -1 : xa > xb ? 1 : 0;
    });
    this.ids = order.map((k) => this.idAt(k));
    this.patterns = order.map((k) => this.patterns[k]!);
    this.wild = order.map((k) => this.wild[k]!);
    this.prefixes = order.map((k) => prefixes[k]!);
  }

  /** What a long path holds (see path-chars.ts); undefined for a short one. */
  private heldBy(path: string): PathChars | undefined {
    if (path.length < LONG_PATH) return undefined;
    if (held === undefined) {
      heldFor = path;
      return (held = new PathChars(path));
    }
    if (path !== heldFor) {
      held.reset(path);
      heldFor = path;
    }
    return held;
  }

  /**
   * Calls `visit(position)` for every entry whose pattern matches `path`. Positions are
   * read back with `idAt`, `priorityAt`, `lineAt`, `isAllowAt`.
   */
  forEachMatch(path: string, visit: (position: number) => void): void {
    const count = this.scanIfUnsorted(path);
    if (count < 0) return this.lookUp(path, visit);
    for (let i = 0; i < count; i++) visit(scanned[i]!);
  }

  /**
   * Sorts the entries once they have been scanned often enough; then -1 when the sorted
   * lookup applies, else the linear scan's count of matches (left in `scanned`).
   */
  private scanIfUnsorted(path: string): number {
    if (!this.prefixes && --this.scansBeforeSort <= 0) this.sort();
    return this.prefixes ? -1 : this.scan(path);
  }

  /**
   * The linear scan: tests every entry, leaving the positions that match in `scanned`, in
   * order; returns how many.
   */
  private scan(path: string): number {
    const table = this.table;
    const plainInPlace = this.plainInPlace;
    const found = scanned;
    let count = 0;
    const held = this.heldBy(path);
    if (!this.ids && plainInPlace) {
      // A range of rules: scanned where they stand, patterns made for those it cannot tell.
      // Rules whose patterns were made by an earlier check are matched by them.
      const written = table.scanInPlace(
        this.first,
        this.size,
        path,
        IN_PLACE_LIMIT,
        held,
        found,
        this.patterns,
      );
      let previous: string | undefined;
      let matched = false;
      for (let i = 0; i < written; i++) {
        const entry = found[i]!;
        if (entry >= 0) {
          found[count++] = entry;
          continue;
        }
        // A pattern equal to the one before it (repeated lines) answers as that one did.
        const pattern = this.patternAt(~entry);
        if (pattern !== previous) {
          matched = this.matchesPatternAt(~entry, path, held);
          previous = pattern;
        }
        if (matched) found[count++] = ~entry;
      }
      return count;
    }
    // A pattern equal to the one before it (repeated lines) answers as that one did, and so
    // does a value.
    let previous: string | undefined;
    let matched = false;
    let previousId = -1;
    let inPlace: 1 | 0 | -1 = 0;
    for (let k = 0; k < this.size; k++) {
      const id = this.idAt(k);
      // Short values are compared where they stand; a long one is worth its pattern, which
      // the engine compares natively, and which is then kept for the next checks.
      if (plainInPlace && id >= 0) {
        if (previousId < 0 || !table.sameValue(id, previousId)) {
          inPlace = table.matchInPlace(id, path, IN_PLACE_LIMIT, held);
          previousId = id;
        }
        if (inPlace >= 0) {
          if (inPlace === 1) found[count++] = k;
          continue;
        }
      }
      const pattern = this.patternAt(k);
      if (pattern !== previous) {
        matched = this.matchesPatternAt(k, path, held);
        previous = pattern;
      }
      if (matched) found[count++] = k;
    }
    return count;
  }

  /** Entry `k`'s pattern (made if need be) matched against `path`. */
  private matchesPatternAt(k: number, path: string, held: PathChars | undefined): boolean {
    const pattern = this.patternAt(k);
    return this.wild[k] ? matchesPattern(pattern, path, held) : path.startsWith(pattern);
  }

  /** The sorted lookup (see the class comment). */
  private lookUp(path: string, visit: (position: number) => void): void {
    const prefixes = this.prefixes!;
    const patterns = this.patterns;
    const wild = this.wild;
    const held = this.heldBy(path);
    let hi = upperBound(prefixes, path, prefixes.length);
    while (hi > 0) {
      const prefix = prefixes[hi - 1]!;
      const common = commonPrefixLength(prefix, path);
      if (common === prefix.length) {
        // `prefix` starts the path: test every entry with exactly this prefix.
        let k = hi - 1;
        let previous: string | undefined;
        let matched = false;
        for (; k >= 0 && prefixes[k] === prefix; k--) {
          if (!wild[k]) {
            visit(k);
            continue;
          }
          if (patterns[k] !== previous) {
            matched = matchesPattern(patterns[k]!, path, held);
            previous = patterns[k];
          }
          if (matched) visit(k);
        }
        if (prefix.length === 0) return;
        // Next: only prefixes shorter than this one can still start the path.
        hi = upperBound(prefixes, path.slice(0, prefix.length - 1), k + 1);
      } else {
        // The entry just below the bound is the greatest one not above it, so no entry
        // longer than the common part can start the path: continue from the common part.
        hi = upperBound(prefixes, path.slice(0, common), hi - 1);
      }
    }
  }

  /** The longest-matching allow and disallow (ties: the earlier line), as Google keeps them. */
  best(path: string, out: BestMatch): BestMatch {
    out.allow = -1;
    out.disallow = -1;
    // The scan's matches are read back without a callback: this is every verdict's path.
    const count = this.scanIfUnsorted(path);
    if (count < 0) this.lookUp(path, (k) => this.consider(out, k));
    for (let i = 0; i < count; i++) this.consider(out, scanned[i]!);
    return out;
  }

  consider(out: BestMatch, k: number): void {
    considerMatch(this, out, k);
  }

  idAt(k: number): number {
    return this.ids ? this.ids[k]! : this.first + k;
  }
  /** Octets of the entry's pattern; -1 for no entry (k < 0). */
  priorityAt(k: number): number {
    if (k < 0) return -1;
    // A plain value matched in place made no pattern: it is its own.
    return this.patterns[k]?.length ?? this.table.valueLength(this.idAt(k));
  }
  /** Line of the entry's rule; 0 for no entry (k < 0). */
  lineAt(k: number): number {
    return k < 0 ? 0 : this.table.line(rootId(this.idAt(k)));
  }
  isAllowAt(k: number): boolean {
    return this.table.isAllow(rootId(this.idAt(k)));
  }
}

/**
 * What precedence and the answers read of a selection's index: a `RuleIndex`, or one with
 * the index of its rules' index.html aliases beside it (`AliasedIndex`, aliased-index.ts).
 * Positions are what `forEachMatch` visits and `best` keeps.
 */
export interface MatchIndex {
  /** Entries: positions are `0..size`. */
  readonly size: number;
  /** Calls `visit(position)` for every entry matching `path`. */
  forEachMatch(path: string, visit: (position: number) => void): void;
  /** The longest-matching allow and disallow (ties: the earlier line). */
  best(path: string, out: BestMatch): BestMatch;
  /** Keeps entry `k` in `out` if it beats the best match of its kind so far. */
  consider(out: BestMatch, k: number): void;
  idAt(k: number): number;
  /** Octets of the entry's pattern; -1 for no entry (k < 0). */
  priorityAt(k: number): number;
  /** Line of the entry's rule; 0 for no entry (k < 0). */
  lineAt(k: number): number;
  isAllowAt(k: number): boolean;
}

/**
 * Keeps entry `k` of `index` in `out` if it beats the best match of its kind so far: the
 * longer pattern wins; among equals, the one on the earlier line (Google keeps the first).
 */
export function considerMatch(index: MatchIndex, out: BestMatch, k: number): void {
  if (index.isAllowAt(k)) {
    if (out.allow < 0 || isBetter(index, k, out.allow)) out.allow = k;
  } else if (out.disallow < 0 || isBetter(index, k, out.disallow)) {
    out.disallow = k;
  }
}

function isBetter(index: MatchIndex, a: number, b: number): boolean {
  const pa = index.priorityAt(a);
  const pb = index.priorityAt(b);
  return pa > pb || (pa === pb && index.lineAt(a) < index.lineAt(b));
}

/** Positions in the index of the best allow and disallow match; -1 for none. */
export interface BestMatch {
  allow: number;
  disallow: number;
}

/** The rule an entry id comes from (an alias id is the complement of its rule's). */
function rootId(id: number): number {
  return id >= 0 ? id : ~id;
}

/** First position in `sorted[0..end)` whose value is greater than `key`. */
function upperBound(sorted: readonly string[], key: string, end: number): number {
  let lo = 0;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function commonPrefixLength(a: string, b: string): number {
  const max = a.length < b.length ? a.length : b.length;
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
