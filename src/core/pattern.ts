import type { ByteString } from './bytes.ts';

const HEX = '0123456789ABCDEF';

function isHex(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x46) ||
    (code >= 0x61 && code <= 0x66)
  );
}

function hexValue(code: number): number {
  return code <= 0x39 ? code - 0x30 : (code | 0x20) - 0x57;
}

function percent(byte: number): string {
  return '%' + HEX[byte >> 4]! + HEX[byte & 15]!;
}

/**
 * Google's MaybeEscapePattern: octets ≥ 0x80 become `%XX`, and the hex digits of existing
 * `%xx` escapes are upper-cased. Everything else, `*` and `$` included, is kept.
 */
export function googleEscape(value: ByteString): ByteString {
  // Unchanged stretches are copied whole: most escapes (`%2F`...) are upper-case already.
  let out = '';
  let copied = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x25 && isHex(value.charCodeAt(i + 1)) && isHex(value.charCodeAt(i + 2))) {
      if (value.charCodeAt(i + 1) >= 0x61 || value.charCodeAt(i + 2) >= 0x61) {
        out += value.slice(copied, i) + '%' + value.slice(i + 1, i + 3).toUpperCase();
        copied = i + 3;
      }
      i += 2;
    } else if (c >= 0x80) {
      out += value.slice(copied, i) + percent(c);
      copied = i + 1;
    }
  }
  return copied === 0 ? value : out + value.slice(copied);
}

function isUnreserved(code: number): boolean {
  // RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~"
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e
  );
}

/**
 * RFC 9309 §2.2.2 normalisation of a byte string: `%XX` of unreserved characters decoded,
 * other escapes upper-cased, non-ASCII octets %-encoded. In a URL (`isPattern` false) a
 * literal `*` or `$` becomes `%2A`/`%24`, so that a rule's `%2A` matches it (§2.2.3); in a
 * pattern they stay special.
 */
export function rfc9309Normalize(value: ByteString, isPattern: boolean): ByteString {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x25 && isHex(value.charCodeAt(i + 1)) && isHex(value.charCodeAt(i + 2))) {
      const byte = hexValue(value.charCodeAt(i + 1)) * 16 + hexValue(value.charCodeAt(i + 2));
      out += isUnreserved(byte) ? String.fromCharCode(byte) : percent(byte);
      i += 2;
    } else if (c >= 0x80) {
      out += percent(c);
    } else if (!isPattern && (c === 0x2a || c === 0x24)) {
      out += percent(c);
    } else {
      out += value[i];
    }
  }
  return out;
}

/**
 * The 1996 standard: `%XX` escapes are decoded to octets before comparison, except `%2F`,
 * which must match exactly (kept as `%2F`, hex upper-cased).
 */
export function legacyDecode(value: ByteString): ByteString {
  if (value.indexOf('%') < 0) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x25 && isHex(value.charCodeAt(i + 1)) && isHex(value.charCodeAt(i + 2))) {
      const byte = hexValue(value.charCodeAt(i + 1)) * 16 + hexValue(value.charCodeAt(i + 2));
      out += byte === 0x2f ? '%2F' : String.fromCharCode(byte);
      i += 2;
    } else {
      out += value[i];
    }
  }
  return out;
}

/**
 * The literal text every match starts with: the pattern up to its first `*`, without a
 * final `$` (what a prefix index sorts by). Without wildcards, the whole pattern.
 */
export function literalPrefix(pattern: string, wildcards: boolean): string {
  if (!wildcards) return pattern;
  const star = pattern.indexOf('*');
  if (star >= 0) return pattern.slice(0, star);
  return pattern.endsWith('$') ? pattern.slice(0, -1) : pattern;
}

/** Paths longer than this get a cheap pre-check before substring searches. */
const LONG_PATH = 256;

/**
 * Whether `path` matches a pattern with `*` (any run of octets) and a final `$` (end of
 * path), anchored at the start of the path: the same answers as Google's
 * RobotsMatchStrategy::Matches. Each literal segment is searched for once, leftmost first,
 * which is enough because `*` can absorb anything in between; so the cost is at most path
 * length × pattern length, with no backtracking and no allocation.
 */
export function matchesPattern(pattern: string, path: string): boolean {
  let end = pattern.length;
  const anchored = end > 0 && pattern.charCodeAt(end - 1) === 0x24;
  if (anchored) end--;
  let star = pattern.indexOf('*');
  if (star < 0 || star >= end) {
    // No wildcard: a prefix test, or an exact one with `$`.
    return anchored
      ? path.length === end && regionEquals(path, 0, pattern, 0, end)
      : path.startsWith(pattern);
  }
  if (!regionEquals(path, 0, pattern, 0, star)) return false;
  let pos = star;
  // On long paths, first make sure every character the segments need occurs at all: a
  // native single-character search is far cheaper than a segment search whose first
  // character occurs everywhere (a hostile `*a0*a1...` against `/aaaa...`).
  if (path.length > LONG_PATH) {
    for (let i = star + 1; i < end; i++) {
      if (pattern.charCodeAt(i) !== 0x2a && path.indexOf(pattern[i]!, pos) < 0) return false;
    }
  }
  for (;;) {
    const from = star + 1;
    const next = pattern.indexOf('*', from);
    const segmentEnd = next < 0 || next > end ? end : next;
    const length = segmentEnd - from;
    if (segmentEnd === end) {
      // The last segment: at the very end of the path with `$`, anywhere after pos without.
      if (anchored) {
        return (
          path.length - length >= pos &&
          regionEquals(path, path.length - length, pattern, from, length)
        );
      }
      return length === 0 || indexOfRegion(path, pattern, from, length, pos) >= 0;
    }
    if (length > 0) {
      const at = indexOfRegion(path, pattern, from, length, pos);
      if (at < 0) return false;
      pos = at + length;
    }
    star = segmentEnd;
  }
}

/** path[at, at+length) equals pattern[from, from+length). */
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

/** First index ≥ `pos` where pattern[from, from+length) occurs in path, or -1. */
function indexOfRegion(
  path: string,
  pattern: string,
  from: number,
  length: number,
  pos: number,
): number {
  const first = pattern[from]!;
  const last = path.length - length;
  for (let at = path.indexOf(first, pos); at >= 0 && at <= last; at = path.indexOf(first, at + 1)) {
    if (regionEquals(path, at + 1, pattern, from + 1, length - 1)) return at;
  }
  return -1;
}
