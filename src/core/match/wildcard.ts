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
 * On long paths two things keep a check from costing a search step per position of the
 * path per rule (`*a0` against `aaaa…`, in a file of many such rules):
 * - What the path holds (`PathChars`) is asked first: a pattern needing a character the path
 *   lacks cannot match. A pattern no longer than the path is tested whole before any search
 *   (the test costs no more than the search would); a longer one is not, so that a 500 KiB
 *   pattern checked against an 8 KiB path costs the part of it the path can hold.
 * - Once the native searches of one check have gone over the path a few times, the path's
 *   positions are made and each further segment is searched from its rarest character.
 * - Where the last pattern's segments up to one of its stars ended is remembered: the next
 *   pattern beginning with the same text (rules differing only past their last star)
 *   starts there, so a file of such rules costs one search a rule, not one a segment.
 */
import { bucketOf, type PathChars } from './path-chars.ts';

/**
 * Whether `path` matches `pattern`; `held`: what the path holds, for long paths. Segments
 * are sliced as they are reached and nothing is kept: a compiled form per pattern was
 * measured at about 20% more checks per second on the largest files and 13% more retained
 * memory over the corpus, and most patterns of a file are tested rarely or never.
 */
export function matchesPattern(pattern: string, path: string, held?: PathChars): boolean {
  return matchesPatternIn(pattern, 0, pattern.length, path, held);
}

/**
 * `matchesPattern` for the pattern `text[begin, finish)`, matched where it stands (a rule's
 * value in the robots.txt text, when it is its own pattern).
 */
export function matchesPatternIn(
  text: string,
  begin: number,
  finish: number,
  path: string,
  held?: PathChars,
): boolean {
  let end = finish;
  const anchored = end > begin && text.charCodeAt(end - 1) === 0x24;
  if (anchored) end--;
  let star = starIn(text, begin, end);
  if (star < 0) {
    return anchored
      ? path.length === end - begin && regionEquals(path, 0, text, begin, end - begin)
      : regionEquals(path, 0, text, begin, finish - begin);
  }
  let pos = star - begin;
  // The segments of a prefix the last pattern matched against this path began with are
  // not searched for again (see `PathChars.knownPrefix`).
  const known = held ? held.knownPrefix(text, begin, end) : 0;
  if (known > 0) {
    pos = held!.prefixEnd;
    if (pos < 0) return false;
    star = begin + known - 1;
  } else if (!regionEquals(path, 0, text, begin, star - begin)) {
    return false;
  }
  // Tested whole up front when no longer than the path (see above).
  if (held && end - star <= path.length && !held.holdsAll(text, star + 1, end)) return false;
  // Whether a segment was searched for since the prefix was remembered: the prefix through
  // the last star is then remembered once, at the end (not at every segment: a 500 KiB line
  // has thousands).
  let searched = false;
  for (;;) {
    const from = star + 1;
    const next = starIn(text, from, end);
    if (next < 0) {
      if (searched) held!.notePrefix(text, begin, from - begin, pos);
      const length = end - from;
      if (anchored) {
        return (
          path.length - length >= pos &&
          regionEquals(path, path.length - length, text, from, length)
        );
      }
      return length === 0 || find(path, text.slice(from, end), pos, held) >= 0;
    }
    if (next > from) {
      const at = find(path, text.slice(from, next), pos, held);
      if (at < 0) {
        held?.notePrefix(text, begin, next + 1 - begin, -1);
        return false;
      }
      pos = at + next - from;
      searched = held !== undefined;
    }
    star = next;
  }
}

/**
 * `matchesPatternIn` for a value matched where it stands against a short path, from its first
 * wildcard on: `text[at]` is a `*`, or a final `$`, and the value before it equals the path's
 * first `pos` characters. The rest is read once, as it is matched: 1 for a match, 0 for none,
 * -1 at a `%` or a non-ASCII character in a segment reached (normalisation rewrites those:
 * make the pattern). A segment not found answers 0 whatever follows it, since normalisation
 * leaves plain characters, and so where a plain segment is found, as they are.
 */
export function matchesRestIn(
  text: string,
  at: number,
  end: number,
  path: string,
  pos: number,
): 1 | 0 | -1 {
  // A final `$` with no star before it: the path is the prefix, and nothing more.
  if (text.charCodeAt(at) === 0x24) return path.length === pos ? 1 : 0;
  let from = at + 1;
  for (;;) {
    let to = from;
    for (; to < end; to++) {
      const c = text.charCodeAt(to);
      if (c === 0x2a) break;
      if (c === 0x25 || c >= 0x80) return -1;
    }
    if (to === end) {
      if (to > from && text.charCodeAt(to - 1) === 0x24) {
        const length = to - 1 - from;
        return path.length - length >= pos &&
          regionEquals(path, path.length - length, text, from, length)
          ? 1
          : 0;
      }
      return to === from || findIn(path, pos, text, from, to) >= 0 ? 1 : 0;
    }
    if (to > from) {
      const found = findIn(path, pos, text, from, to);
      if (found < 0) return 0;
      pos = found + to - from;
    }
    from = to + 1;
  }
}

/** Segments up to this long are searched for in a short path where they stand. */
const SHORT_SEGMENT = 6;

/**
 * The leftmost `text[from, to)` in `path` at or after `pos`, or -1. A short segment is compared
 * where it stands, from each occurrence of its first character (no string made for it, as the
 * engine's own search does for such a segment); a longer one is searched natively.
 */
function findIn(path: string, pos: number, text: string, from: number, to: number): number {
  const length = to - from;
  if (length > SHORT_SEGMENT) return path.indexOf(text.slice(from, to), pos);
  const first = text.charCodeAt(from);
  const last = path.length - length;
  for (let i = pos; i <= last; i++) {
    if (path.charCodeAt(i) !== first) continue;
    let k = 1;
    while (k < length && path.charCodeAt(i + k) === text.charCodeAt(from + k)) k++;
    if (k === length) return i;
  }
  return -1;
}

/**
 * The leftmost occurrence of `segment` in `path` at or after `pos`, or -1. The engine's search
 * takes a step for every occurrence of the segment's first character; once a check's searches
 * have gone over a long path a few times (many rules, see path-chars.ts), a segment whose
 * first character fills the path (`a` in `aaaa…a10`) while another of its characters is much
 * rarer is searched from that rarer character's positions instead, each a candidate tested in
 * place, and one whose characters the path lacks fails at once. Distinct segments of many
 * rules then cost their rarest character's occurrences, not the path, each.
 */
function find(path: string, segment: string, pos: number, held: PathChars | undefined): number {
  const positions = held && segment.length >= 2 ? held.positionsIfSearched() : undefined;
  if (!positions) {
    const at = path.indexOf(segment, pos);
    held?.searched((at < 0 ? path.length : at + segment.length) - pos);
    return at;
  }
  const { start, order } = positions;
  let rare = 0;
  let rareCount = 0;
  let firstCount = 0;
  for (let r = 0; r < segment.length; r++) {
    const bucket = bucketOf(segment.charCodeAt(r));
    const c = start[bucket + 1]! - start[bucket]!;
    if (r === 0) firstCount = rareCount = c;
    else if (c < rareCount) {
      rare = r;
      rareCount = c;
    }
  }
  if (rareCount * 4 >= firstCount) return path.indexOf(segment, pos);
  const b = bucketOf(segment.charCodeAt(rare));
  // The first occurrence at or after pos + rare (binary search in the bucket).
  let lo = start[b]!;
  let hi = start[b + 1]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order[mid]! < pos + rare) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < start[b + 1]!; i++) {
    const at = order[i]! - rare;
    if (path.startsWith(segment, at)) return at;
  }
  return -1;
}

/**
 * The first `*` in `text[from, to)`, or -1. A pattern of its own is searched natively; a
 * span of a larger text (a short rule value) with a loop, so the search never runs past it.
 */
function starIn(text: string, from: number, to: number): number {
  if (to >= text.length - 1) {
    const at = text.indexOf('*', from);
    return at >= 0 && at < to ? at : -1;
  }
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 0x2a) return i;
  return -1;
}

/**
 * `path[at, at + length)` equals `pattern[from, from + length)`, compared where they stand
 * (short stretches: the head and an anchored tail, whose cost the match pays once).
 */
function regionEquals(
  path: string,
  at: number,
  pattern: string,
  from: number,
  length: number,
): boolean {
  if (at + length > path.length) return false;
  for (let i = 0; i < length; i++) {
    if (path.charCodeAt(at + i) !== pattern.charCodeAt(from + i)) return false;
  }
  return true;
}
