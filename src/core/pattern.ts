import type { ByteString } from './bytes.ts';

const HEX = '0123456789ABCDEF';
const NEEDS_GOOGLE_ESCAPE = /[%\x80-\xff]/;

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
  if (!NEEDS_GOOGLE_ESCAPE.test(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x25 && isHex(value.charCodeAt(i + 1)) && isHex(value.charCodeAt(i + 2))) {
      out += '%' + value.slice(i + 1, i + 3).toUpperCase();
      i += 2;
    } else if (c >= 0x80) {
      out += percent(c);
    } else {
      out += value[i];
    }
  }
  return out;
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
 * A pattern split for matching without backtracking: the literal prefix every match starts
 * with, then the literal segments that each follow a `*`. Matching searches each segment
 * once, leftmost first, so one check costs at most path length × pattern length.
 */
export interface CompiledPattern {
  /** Literal text before the first `*` (the part a prefix index can look up). */
  readonly prefix: string;
  /** Literal segments after each `*`, in order. */
  readonly segments: readonly string[];
  /** The pattern ended in `$`: the match must reach the end of the path. */
  readonly anchored: boolean;
}

/** Splits a pattern; with `wildcards` false (the 1996 standard) it is one literal prefix. */
export function compilePattern(pattern: string, wildcards: boolean): CompiledPattern {
  if (!wildcards) return { prefix: pattern, segments: [], anchored: false };
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const parts = body.split('*');
  return { prefix: parts[0]!, segments: parts.slice(1), anchored };
}

/**
 * Whether `path`, already known to start with `pattern.prefix`, matches the rest of the
 * pattern. Same answers as Google's RobotsMatchStrategy::Matches.
 */
export function matchesAfterPrefix(pattern: CompiledPattern, path: string): boolean {
  const { segments, anchored } = pattern;
  let pos = pattern.prefix.length;
  const last = segments.length - 1;
  if (last < 0) return !anchored || pos === path.length;
  for (let i = 0; i < last; i++) {
    const segment = segments[i]!;
    if (segment.length === 0) continue;
    const at = path.indexOf(segment, pos);
    if (at < 0) return false;
    pos = at + segment.length;
  }
  const tail = segments[last]!;
  if (anchored) return path.length - tail.length >= pos && path.endsWith(tail);
  return tail.length === 0 || path.indexOf(tail, pos) >= 0;
}

/** Whether `path` matches `pattern` (anchored at the start of the path). */
export function matches(pattern: CompiledPattern, path: string): boolean {
  return path.startsWith(pattern.prefix) && matchesAfterPrefix(pattern, path);
}
