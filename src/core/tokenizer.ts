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
 * Tokenizes `text` (a byte string), calling `handler` for every line and directive.
 * Returns the number of lines.
 */
export function tokenize(text: ByteString, handler: TokenHandler): number {
  // Google skips any prefix of the UTF-8 BOM (EF BB BF), stopping at the first mismatch.
  let pos = 0;
  if (text.charCodeAt(0) === 0xef) {
    pos = 1;
    if (text.charCodeAt(1) === 0xbb) {
      pos = 2;
      if (text.charCodeAt(2) === 0xbf) pos = 3;
    }
  }
  const length = text.length;
  const scan = new CharScanner(text);
  let lineNumber = 0;
  let lastWasCR = false;
  while (pos < length) {
    const lf = scan.next(LF_CHAR, pos);
    const cr = scan.next(CR_CHAR, pos);
    const end = lf < cr ? lf : cr;
    if (end === length) break;
    const terminator = text.charCodeAt(end);
    // The LF of a CRLF pair does not end a second, empty line.
    const crlfContinuation = end === pos && lastWasCR && terminator === LF;
    if (!crlfContinuation) emitLine(text, scan, ++lineNumber, pos, end, handler);
    lastWasCR = terminator === CR;
    pos = end + 1;
  }
  // Google always emits the final line, empty or not.
  emitLine(text, scan, ++lineNumber, pos, length, handler);
  return lineNumber;
}

const LF_CHAR = 0;
const CR_CHAR = 1;
const NUL_CHAR = 2;
const HASH_CHAR = 3;
const COLON_CHAR = 4;
const SCANNED = ['\n', '\r', '\0', '#', ':'];

/**
 * Next position of each special character, cached: lines are visited in order, so each
 * character is searched for once per occurrence and tokenizing stays linear in the input.
 */
class CharScanner {
  private readonly found = [-1, -1, -1, -1, -1];
  constructor(private readonly text: string) {}

  /** Position of the next `which` at or after `from`, or the text length if none. */
  next(which: number, from: number): number {
    const cached = this.found[which]!;
    if (cached >= from) return cached;
    const at = this.text.indexOf(SCANNED[which]!, from);
    const result = at < 0 ? this.text.length : at;
    this.found[which] = result;
    return result;
  }
}

function isAsciiSpace(code: number): boolean {
  // absl::ascii_isspace: space, \t, \n, \v, \f, \r
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

function emitLine(
  text: ByteString,
  scan: CharScanner,
  line: number,
  start: number,
  end: number,
  handler: TokenHandler,
): void {
  const truncated = end - start > MAX_LINE_BYTES;
  let stop = truncated ? start + MAX_LINE_BYTES : end;
  // Google's line is a C string: nothing after a NUL byte is seen.
  const nulAt = scan.next(NUL_CHAR, start);
  const nul = nulAt < stop;
  if (nul) stop = nulAt;
  const hashAt = scan.next(HASH_CHAR, start);
  const comment = hashAt < stop;
  if (comment) stop = hashAt;

  let s = start;
  while (s < stop && isAsciiSpace(text.charCodeAt(s))) s++;
  let e = stop;
  while (e > s && isAsciiSpace(text.charCodeAt(e - 1))) e--;

  const info: LineInfo = {
    line,
    start,
    end,
    truncated,
    nul,
    blank: s === e && !comment,
    comment,
    unparsable: false,
  };
  if (s === e) {
    handler.line?.(info);
    return;
  }
  const directive = splitKeyValue(text, scan.next(COLON_CHAR, s), line, start, s, e);
  info.unparsable = directive === undefined;
  handler.line?.(info);
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
  const k = key.length > 10 ? key.slice(0, 10).toLowerCase() : key.toLowerCase();
  if (k.startsWith('user-agent')) return ['user-agent', false];
  if (USER_AGENT_TYPOS.some((t) => k.startsWith(t))) return ['user-agent', true];
  if (k.startsWith('allow')) return ['allow', false];
  if (k.startsWith('disallow')) return ['disallow', false];
  if (DISALLOW_TYPOS.some((t) => k.startsWith(t))) return ['disallow', true];
  if (k.startsWith('sitemap')) return ['sitemap', false];
  if (k.startsWith('site-map')) return ['sitemap', true];
  return ['unknown', false];
}
