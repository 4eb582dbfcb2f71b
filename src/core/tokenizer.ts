import type { ByteString } from './bytes.ts';

/**
 * The one robots.txt tokenizer. It reproduces how Google's reference parser (robots.cc)
 * turns bytes into lines and lines into key/value directives, and emits events to a
 * handler: matching, the group model and the linter are all consumers of the same parse.
 */

/** Google's line buffer is 2083 × 8 bytes, one of which holds the terminating NUL. */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

export type DirectiveKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'unknown';

/** One physical line, as Google counts lines. */
export interface LineInfo {
  /** 1-based; CR, LF and CRLF each end a line; a skipped BOM adds none. */
  line: number;
  /** Offset of the line's first byte in the (BOM-stripped) input. */
  start: number;
  /** Offset just past the line's last byte, before its terminator. */
  end: number;
  /** The line is longer than Google's buffer; bytes past MAX_LINE_BYTES were ignored. */
  truncated: boolean;
  /** The line holds a NUL byte; Google's C-string handling ignores what follows it. */
  nul: boolean;
  /** Nothing but whitespace: what the 1996 standard calls a blank line. */
  blank: boolean;
  /** Holds a `#` comment (possibly nothing else). */
  comment: boolean;
  /** Not blank, but yields no directive (no separator, or an empty key). */
  unparsable: boolean;
}

/** One key/value line, as Google's parser emits it to its handler. */
export interface Directive {
  line: number;
  kind: DirectiveKind;
  /** The key as written, whitespace-stripped (byte string). */
  key: ByteString;
  /** The value as written, whitespace-stripped, comment removed (byte string). */
  value: ByteString;
  /** The key was recognised only through a typo Google accepts (`disalow`, `useragent`...). */
  typo: boolean;
  /** No colon: Google accepted whitespace as the separator. */
  missingColon: boolean;
  /** Column (1-based, in bytes) where the value starts, for diagnostics. */
  valueColumn: number;
}

export interface TokenHandler {
  /** Called for every line, before the line's directive (if any). */
  line?(info: LineInfo): void;
  directive(directive: Directive): void;
}

const CR = 0x0d;
const LF = 0x0a;

/**
 * Thrown by `tokenize` in unicode mode when a line is long enough for Google's byte-based
 * cut to fall inside it and it holds non-ASCII text: the caller re-runs in byte mode.
 */
export class NeedsByteMode extends Error {}

/**
 * Tokenizes `text`, calling `handler` for every line and directive; returns the number of
 * lines. `text` is a byte string, or with `unicode` set, ordinary text whose non-ASCII
 * characters stand for their UTF-8 bytes (handlers then encode values where bytes matter).
 * Unicode mode skips converting the whole body; it gives the same directives, because every
 * character the tokenizer acts on is ASCII.
 */
export function tokenize(text: string, handler: TokenHandler, unicode = false): number {
  // Google skips any prefix of the UTF-8 BOM (EF BB BF), stopping at the first mismatch.
  let pos = 0;
  if (unicode) {
    if (text.charCodeAt(0) === 0xfeff) pos = 1;
  } else if (text.charCodeAt(0) === 0xef) {
    pos = 1;
    if (text.charCodeAt(1) === 0xbb) {
      pos = 2;
      if (text.charCodeAt(2) === 0xbf) pos = 3;
    }
  }
  const length = text.length;
  // Next position of each special character, kept as lines are visited in order, so each
  // occurrence is searched for once and tokenizing stays linear in the input.
  let lf = -1;
  let cr = -1;
  const found = { nul: -1, hash: -1, colon: -1 };
  let lineNumber = 0;
  let lastWasCR = false;
  for (;;) {
    if (lf < pos) lf = nextIndex(text, '\n', pos);
    if (cr < pos) cr = nextIndex(text, '\r', pos);
    const end = lf < cr ? lf : cr;
    if (end === length) break;
    const terminator = text.charCodeAt(end);
    // The LF of a CRLF pair does not end a second, empty line.
    if (!(end === pos && lastWasCR && terminator === LF)) {
      if (unicode && end - pos > UNICODE_SAFE_LINE) checkUnicodeLine(text, pos, end);
      emitLine(text, found, ++lineNumber, pos, end, handler);
    }
    lastWasCR = terminator === CR;
    pos = end + 1;
  }
  // Google always emits the final line, empty or not.
  if (unicode && length - pos > UNICODE_SAFE_LINE) checkUnicodeLine(text, pos, length);
  emitLine(text, found, ++lineNumber, pos, length, handler);
  return lineNumber;
}

/** A UTF-16 code unit is at most 3 UTF-8 bytes: shorter lines can never reach the cut. */
const UNICODE_SAFE_LINE = Math.floor(MAX_LINE_BYTES / 3);
// eslint-disable-next-line no-control-regex -- the range starts at NUL on purpose
const ALL_ASCII = /^[\x00-\x7f]*$/;

function checkUnicodeLine(text: string, start: number, end: number): void {
  if (!ALL_ASCII.test(text.slice(start, end))) throw new NeedsByteMode();
}

function nextIndex(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at < 0 ? text.length : at;
}

interface Found {
  nul: number;
  hash: number;
  colon: number;
}

function isAsciiSpace(code: number): boolean {
  // absl::ascii_isspace: space, \t, \n, \v, \f, \r
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

function emitLine(
  text: ByteString,
  found: Found,
  line: number,
  start: number,
  end: number,
  handler: TokenHandler,
): void {
  const truncated = end - start > MAX_LINE_BYTES;
  let stop = truncated ? start + MAX_LINE_BYTES : end;
  // Google's line is a C string: nothing after a NUL byte is seen.
  if (found.nul < start) found.nul = nextIndex(text, '\0', start);
  const nul = found.nul < stop;
  if (nul) stop = found.nul;
  if (found.hash < start) found.hash = nextIndex(text, '#', start);
  const comment = found.hash < stop;
  if (comment) stop = found.hash;

  let s = start;
  while (s < stop && isAsciiSpace(text.charCodeAt(s))) s++;
  let e = stop;
  while (e > s && isAsciiSpace(text.charCodeAt(e - 1))) e--;

  let directive: Directive | undefined;
  if (s !== e) {
    if (found.colon < s) found.colon = nextIndex(text, ':', s);
    directive = splitKeyValue(text, found.colon, line, start, s, e);
  }
  if (handler.line) {
    handler.line({
      line,
      start,
      end,
      truncated,
      nul,
      blank: s === e && !comment,
      comment,
      unparsable: s !== e && directive === undefined,
    });
  }
  if (directive) handler.directive(directive);
}

/** Google's GetKeyAndValueFrom plus key classification; `s..e` is the stripped content. */
function splitKeyValue(
  text: ByteString,
  colonAt: number,
  line: number,
  lineStart: number,
  s: number,
  e: number,
): Directive | undefined {
  let sep = colonAt;
  let missingColon = false;
  if (sep >= e) {
    // Google accepts whitespace instead of the colon, but only between exactly two words.
    sep = -1;
    for (let i = s; i < e; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09) {
        sep = i;
        break;
      }
    }
    if (sep < 0) return undefined;
    let v = sep;
    while (v < e && (text.charCodeAt(v) === 0x20 || text.charCodeAt(v) === 0x09)) v++;
    for (let i = v; i < e; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09) return undefined;
    }
    missingColon = true;
  }
  let keyEnd = sep;
  while (keyEnd > s && isAsciiSpace(text.charCodeAt(keyEnd - 1))) keyEnd--;
  if (keyEnd === s) return undefined;
  let valueStart = sep + 1;
  while (valueStart < e && isAsciiSpace(text.charCodeAt(valueStart))) valueStart++;

  const key = text.slice(s, keyEnd);
  const [kind, typo] = classifyKey(key);
  return {
    line,
    kind,
    key,
    value: text.slice(valueStart, e),
    typo,
    missingColon,
    valueColumn: valueStart - lineStart + 1,
  };
}

const USER_AGENT_TYPOS = ['useragent', 'user agent'];
const DISALLOW_TYPOS = ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'];

/** Google's ParsedRobotsKey::Parse: case-insensitive *prefix* tests, in this order. */
export function classifyKey(key: string): [DirectiveKind, boolean] {
  // Every key Google knows starts with u, a, d or s: anything else is unknown at once.
  const first = lower(key.charCodeAt(0));
  if (first === 0x75 /* u */) {
    if (startsWithLower(key, 'user-agent')) return USER_AGENT;
    if (startsWithAny(key, USER_AGENT_TYPOS)) return USER_AGENT_TYPO;
  } else if (first === 0x61 /* a */) {
    if (startsWithLower(key, 'allow')) return ALLOW;
  } else if (first === 0x64 /* d */) {
    if (startsWithLower(key, 'disallow')) return DISALLOW;
    if (startsWithAny(key, DISALLOW_TYPOS)) return DISALLOW_TYPO;
  } else if (first === 0x73 /* s */) {
    if (startsWithLower(key, 'sitemap')) return SITEMAP;
    if (startsWithLower(key, 'site-map')) return SITEMAP_TYPO;
  }
  return UNKNOWN;
}

const USER_AGENT: [DirectiveKind, boolean] = ['user-agent', false];
const USER_AGENT_TYPO: [DirectiveKind, boolean] = ['user-agent', true];
const ALLOW: [DirectiveKind, boolean] = ['allow', false];
const DISALLOW: [DirectiveKind, boolean] = ['disallow', false];
const DISALLOW_TYPO: [DirectiveKind, boolean] = ['disallow', true];
const SITEMAP: [DirectiveKind, boolean] = ['sitemap', false];
const SITEMAP_TYPO: [DirectiveKind, boolean] = ['sitemap', true];
const UNKNOWN: [DirectiveKind, boolean] = ['unknown', false];

/** ASCII lower-casing of one character code (absl's ascii_tolower). */
function lower(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
}

/** `text` starts with `prefix` (given in lower case), ignoring ASCII case. */
function startsWithLower(text: string, prefix: string): boolean {
  if (text.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    if (lower(text.charCodeAt(i)) !== prefix.charCodeAt(i)) return false;
  }
  return true;
}

function startsWithAny(text: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) if (startsWithLower(text, prefix)) return true;
  return false;
}
