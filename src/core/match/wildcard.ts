/**
 * Matching a path against a pattern with `*` (any run of octets) and a final `$` (end of
 * path), anchored at the start of the path: the same answers as Google's
 * RobotsMatchStrategy::Matches, in time linear in path and pattern.
 *
 * Each literal segment between stars is found at its leftmost occurrence after the previous
 * one (enough, because `*` absorbs whatever lies between) by the engine's native substring
 * search; the tail is tested at the end of the path with `$`, found anywhere after without.
 * The searches cover disjoint stretches of the path, so a check costs O(path + pattern).
 *
 * On long paths a character-set test comes first: a pattern needing a character the path
 * does not hold cannot match. The path's set is made once per check (O(path)) and shared by
 * every rule; a compiled pattern keeps its own. Without it, a short segment whose first
 * character occurs everywhere (`*a0` against `aaaa…`) costs a native search step per position.
 */

/** Paths at least this long get the character-set test. */
export const LONG_PATH = 256;

/**
 * The characters a string holds: codes 0–127 as four 32-bit words, and whether any code is
 * 128 or above (a byte string's high octets, or a URL given with non-ASCII characters).
 */
export interface CharSet {
  w0: number;
  w1: number;
  w2: number;
  w3: number;
  high: boolean;
}

export function charSet(text: string, from = 0, to = text.length, into?: CharSet): CharSet {
  return addChars(into ?? { w0: 0, w1: 0, w2: 0, w3: 0, high: false }, text, from, to, -1);
}

/** The characters a pattern's segments need: `pattern[from, to)` without its stars. */
function needed(pattern: string, from: number, to: number): CharSet {
  return addChars({ w0: 0, w1: 0, w2: 0, w3: 0, high: false }, pattern, from, to, 0x2a);
}

const words = new Int32Array(5);

function addChars(set: CharSet, text: string, from: number, to: number, skip: number): CharSet {
  words[0] = set.w0;
  words[1] = set.w1;
  words[2] = set.w2;
  words[3] = set.w3;
  words[4] = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    // Word c >> 5 (4 for every code from 128 up), bit c mod 32 (JS shifts take the count mod 32).
    words[c < 128 ? c >> 5 : 4]! |= 1 << c;
  }
  // In a pattern every `*` is a wildcard, never a character a match needs.
  if (skip >= 0) words[skip >> 5]! &= ~(1 << skip);
  set.w0 = words[0]!;
  set.w1 = words[1]!;
  set.w2 = words[2]!;
  set.w3 = words[3]!;
  if (words[4] !== 0) set.high = true;
  return set;
}

/** Every character of `needed` is in `held`. */
export function isSubset(needed: CharSet, held: CharSet): boolean {
  return (
    (needed.w0 & ~held.w0) === 0 &&
    (needed.w1 & ~held.w1) === 0 &&
    (needed.w2 & ~held.w2) === 0 &&
    (needed.w3 & ~held.w3) === 0 &&
    (!needed.high || held.high)
  );
}

/** A pattern split once into its literal segments, for an index that tests it often. */
export interface WildcardPattern {
  /** The text every match starts with (before the first `*`). */
  readonly head: string;
  /** The literal segments between stars, in order; empty ones dropped. */
  readonly middle: readonly string[];
  /** The text after the last `*` (empty without a star). */
  readonly tail: string;
  /** Whether the pattern has a `*` at all (else `head` is the whole pattern, `$`-anchored). */
  readonly starred: boolean;
  /** A final `$`: the tail must end the path. */
  readonly anchored: boolean;
  /** The characters the segments after the head need. */
  readonly needs: CharSet;
}

export function compilePattern(pattern: string): WildcardPattern {
  let end = pattern.length;
  const anchored = end > 0 && pattern.charCodeAt(end - 1) === 0x24;
  if (anchored) end--;
  const first = pattern.indexOf('*');
  if (first < 0 || first >= end) {
    const head = pattern.slice(0, end);
    return { head, middle: [], tail: '', starred: false, anchored, needs: charSet('') };
  }
  const middle: string[] = [];
  let from = first + 1;
  for (let star = pattern.indexOf('*', from); star >= 0 && star < end;) {
    if (star > from) middle.push(pattern.slice(from, star));
    from = star + 1;
    star = pattern.indexOf('*', from);
  }
  return {
    head: pattern.slice(0, first),
    middle,
    tail: pattern.slice(from, end),
    starred: true,
    anchored,
    needs: needed(pattern, first + 1, end),
  };
}

/** Whether `path` matches a compiled pattern; `held`: the path's characters, for long paths. */
export function matchesCompiled(compiled: WildcardPattern, path: string, held?: CharSet): boolean {
  const { head, middle, tail, anchored } = compiled;
  if (!compiled.starred) return anchored ? path === head : path.startsWith(head);
  if (!path.startsWith(head)) return false;
  if (held && !isSubset(compiled.needs, held)) return false;
  let pos = head.length;
  for (let i = 0; i < middle.length; i++) {
    const segment = middle[i]!;
    const at = path.indexOf(segment, pos);
    if (at < 0) return false;
    pos = at + segment.length;
  }
  if (anchored) return path.length - tail.length >= pos && path.endsWith(tail);
  return tail === '' || path.indexOf(tail, pos) >= 0;
}

/**
 * The same answer without compiling: segments are sliced as they are reached, and nothing
 * is kept. For the first checks of a selection, which may be its only ones.
 */
export function matchesPattern(pattern: string, path: string, held?: CharSet): boolean {
  let end = pattern.length;
  const anchored = end > 0 && pattern.charCodeAt(end - 1) === 0x24;
  if (anchored) end--;
  let star = pattern.indexOf('*');
  if (star < 0 || star >= end) {
    return anchored
      ? path.length === end && path.startsWith(pattern.slice(0, end))
      : path.startsWith(pattern);
  }
  if (!(star === 0 || path.startsWith(pattern.slice(0, star)))) return false;
  if (held && !isSubset(needed(pattern, star + 1, end), held)) return false;
  let pos = star;
  for (;;) {
    const from = star + 1;
    const next = pattern.indexOf('*', from);
    if (next < 0 || next >= end) {
      const tail = pattern.slice(from, end);
      if (anchored) return path.length - tail.length >= pos && path.endsWith(tail);
      return tail === '' || path.indexOf(tail, pos) >= 0;
    }
    if (next > from) {
      const segment = pattern.slice(from, next);
      const at = path.indexOf(segment, pos);
      if (at < 0) return false;
      pos = at + segment.length;
    }
    star = next;
  }
}
