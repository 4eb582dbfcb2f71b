/**
 * What a long path holds, learned as the patterns matched against it ask (see wildcard.ts):
 * whether a character occurs in it, and where each character is.
 *
 * A pattern needing a character the path lacks cannot match, which lets a wildcard pattern
 * fail before any search. Whether the path holds a character is asked of the engine's native
 * search (`indexOf` of one character, many times faster than a loop in JS) and remembered for
 * the rest of the check; only past `ASKED_AT_MOST` distinct characters, or for one from 128
 * up, is the path walked once to learn all of them, with their positions. The walk costs
 * about as much as a few dozen native searches: a 20,000-character path asked about two
 * characters (`/*a*a*…*b`) now costs two searches, where it cost a walk of 80 µs.
 */
import { keepShapeOf } from '../shapes.ts';

/** Paths at least this long get a `PathChars` (shorter ones: the searches alone are cheap). */
export const LONG_PATH = 256;

/** Distinct characters asked of the native search before the path is walked instead. */
const ASKED_AT_MOST = 16;

/**
 * Path lengths of native substring search a check spends before the path's positions are
 * made, so that further segments are searched from their rarest character (see `find` in
 * wildcard.ts). A few long segments over disjoint stretches (one 500 KiB pattern against an
 * 8 KiB path) never reach it; many rules each searching the whole path do, at once.
 */
const SEARCHED_AT_MOST = 4;

/** Every code from 128 up shares one bucket of the positions. */
const HIGH_BUCKET = 128;

/** A character's bucket in `Positions`: its code, or HIGH_BUCKET for codes from 128 up. */
export function bucketOf(code: number): number {
  return code < HIGH_BUCKET ? code : HIGH_BUCKET;
}

/**
 * The positions of a path's characters, by bucket (counting sort: `order[start[b] ..
 * start[b + 1])` are the positions of bucket b in increasing order).
 */
export interface Positions {
  readonly start: Int32Array;
  readonly order: Int32Array;
}

export class PathChars {
  #path = '';
  /** Words 0–3: the codes 0–127 asked about so far; words 4–7: those the path holds. */
  readonly #bits = new Int32Array(8);
  #asked = 0;
  /** Characters of the path the native searches of this check have gone over. */
  #searched = 0;
  #positions: Positions | undefined;
  /**
   * The last pattern prefix ending in `*` whose segments were searched for (see
   * `knownPrefix`): `#prefixText[#prefixStart, #prefixStart + #prefixLength)`, none while
   * the length is 0; `#prefixEnd`: where in the path its last segment ended, -1 if one of
   * its segments is not in the path.
   */
  #prefixText = '';
  #prefixStart = 0;
  #prefixLength = 0;
  #prefixEnd = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /** Starts over for another path. */
  reset(path: string): void {
    this.#path = path;
    this.#bits.fill(0);
    this.#asked = 0;
    this.#searched = 0;
    this.#positions = undefined;
    this.#prefixText = '';
    this.#prefixLength = 0;
  }

  /**
   * The length of the remembered prefix (`notePrefix`) if `text[from, to)` starts with it,
   * else 0; `prefixEnd` then says where its segments ended. Rules that share their stars and
   * segments up to the last (`/*a*a*…*a*10`, `/*a*a*…*a*11`, …) search for them once.
   */
  knownPrefix(text: string, from: number, to: number): number {
    const length = this.#prefixLength;
    if (length === 0 || length > to - from) return 0;
    const known = this.#prefixText;
    const start = this.#prefixStart;
    for (let i = 0; i < length; i++) {
      if (text.charCodeAt(from + i) !== known.charCodeAt(start + i)) return 0;
    }
    return length;
  }

  /** Where the segments of the prefix `knownPrefix` found end in the path; -1: one is not in it. */
  get prefixEnd(): number {
    return this.#prefixEnd;
  }

  /**
   * Remembers that the segments of `text[from, from + length)`, a prefix ending in `*`, end
   * at `end` in the path (-1: one is not in it).
   */
  notePrefix(text: string, from: number, length: number, end: number): void {
    this.#prefixText = text;
    this.#prefixStart = from;
    this.#prefixLength = length;
    this.#prefixEnd = end;
  }

  /** Whether the path holds `code` (any code from 128 up, for such a code). */
  has(code: number): boolean {
    const positions = this.#positions;
    if (positions) {
      const b = bucketOf(code);
      return positions.start[b + 1]! > positions.start[b]!;
    }
    if (code >= HIGH_BUCKET || this.#asked >= ASKED_AT_MOST) {
      this.positions();
      return this.has(code);
    }
    const bits = this.#bits;
    const word = code >> 5;
    // JS shifts take their count mod 32: bit `code mod 32`.
    const bit = 1 << code;
    if ((bits[word]! & bit) !== 0) return (bits[word + 4]! & bit) !== 0;
    this.#asked++;
    bits[word]! |= bit;
    if (this.#path.indexOf(String.fromCharCode(code)) < 0) return false;
    bits[word + 4]! |= bit;
    return true;
  }

  /** Whether the path holds every character of `text[from, to)` but `*`. */
  holdsAll(text: string, from: number, to: number): boolean {
    // A character asked about just before (`a*a*a*b` asks about `a` once) is not asked again.
    let last = 0x2a;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c === last || c === 0x2a) continue;
      if (!this.has(c)) return false;
      last = c;
    }
    return true;
  }

  /**
   * The path's positions once native searches have gone over it `SEARCHED_AT_MOST` times
   * (made then), or once made for another reason; undefined before.
   */
  positionsIfSearched(): Positions | undefined {
    if (this.#positions || this.#searched <= SEARCHED_AT_MOST * this.#path.length) {
      return this.#positions;
    }
    return this.positions();
  }

  /** Notes a native search that went over `characters` of the path. */
  searched(characters: number): void {
    this.#searched += characters;
  }

  /** Where each character of the path is, made in one walk when first needed. */
  positions(): Positions {
    if (this.#positions) return this.#positions;
    const path = this.#path;
    const start = new Int32Array(HIGH_BUCKET + 2);
    for (let i = 0; i < path.length; i++) start[bucketOf(path.charCodeAt(i)) + 1]!++;
    for (let b = 1; b < start.length; b++) start[b]! += start[b - 1]!;
    const next = start.slice(0, HIGH_BUCKET + 1);
    const order = new Int32Array(path.length);
    for (let i = 0; i < path.length; i++) order[next[bucketOf(path.charCodeAt(i))]!++] = i;
    return (this.#positions = { start, order });
  }
}

/**
 * Keeps a sample, its positions made, alive between checks (see shapes.ts): a long path's
 * `PathChars` lives only as long as its index, and a full collection that freed the last one
 * threw away the optimized matching code built for it (a first check after it, 13 stars in
 * each of 12,000 rules against an 8 KiB path: 50 to 60 ms, where it took 8 to 20).
 */
export function keepPathCharsShape(): void {
  const sample = new PathChars('/a');
  sample.has(0x61);
  sample.positions();
  keepShapeOf(sample);
}

/** A `PathChars` for a long path; undefined for a short one. */
export function longPathChars(path: string): PathChars | undefined {
  return path.length >= LONG_PATH ? new PathChars(path) : undefined;
}
