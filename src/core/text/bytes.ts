/**
 * A "byte string" holds one UTF-16 code unit per input byte (0x00–0xFF). The tokenizer and
 * matcher work on byte strings so that Google's byte-level behaviour (line cuts, %-encoding of
 * non-ASCII octets, invalid UTF-8) holds for any input, while staying plain JS strings, which
 * are what engines compare and search fastest.
 */
export type ByteString = string;

// eslint-disable-next-line no-control-regex -- the range starts at NUL on purpose
const NON_ASCII = /[^\x00-\x7f]/;
const utf8Encoder = new TextEncoder();
// The BOM kept: a value shows as written, and a U+FEFF inside it ends its product token as Google's
// byte reading does (it is not a letter), where a plain decoder would drop it at the start.
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });
// String.fromCharCode.apply has an argument-count limit; stay well below it.
const CHUNK = 8192;

/** Whitespace as Google's parser reads it (absl::ascii_isspace): space, \t, \n, \v, \f, \r. */
export function isAsciiSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

export function isAscii(text: string): boolean {
  // Most values tested are short (agents, rules): a loop beats a call into the regex engine.
  if (text.length < 64) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
    return true;
  }
  if (text.length < 256) return !NON_ASCII.test(text);
  // Native encoding into scratch space outpaces a regex scan on long text. Every character
  // takes a byte or more, so all of them fit in one byte each only if all are ASCII.
  const { read } = utf8Encoder.encodeInto(text, scratchBuffer(text.length));
  return read === text.length;
}

type Latin1Slice = (this: Uint8Array, start: number, end: number) => string;

/**
 * Node's (and Bun's) latin1 decoding, which is a plain copy, several times faster than
 * UTF-8 decoding, and takes any Uint8Array: undefined where the runtime has no Buffer
 * (browsers, Workers, Deno), or where it does not behave as expected. (Typed here: the core
 * has no Node types.)
 */
const latin1Slice = ((): Latin1Slice | undefined => {
  const host = (globalThis as { Buffer?: { prototype?: { latin1Slice?: unknown } } }).Buffer;
  const slice = host?.prototype?.latin1Slice;
  if (typeof slice !== 'function') return undefined;
  try {
    const probe = new Uint8Array([0x41, 0x00, 0xe9, 0xff]);
    return (slice as Latin1Slice).call(probe, 0, 4) === 'A\u0000\u00e9\u00ff'
      ? (slice as Latin1Slice)
      : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * The runtime turns bytes into a byte string natively (see `latin1Slice`); where it does not,
 * bytes are decoded as UTF-8 instead (see `parse`).
 */
export const NATIVE_BYTE_STRINGS = latin1Slice !== undefined;

/** Bytes to a byte string, one char per byte. */
export function bytesToByteString(bytes: Uint8Array): ByteString {
  return latin1Slice !== undefined
    ? latin1Slice.call(bytes, 0, bytes.length)
    : portableByteString(bytes);
}

/** `bytes[start, end)` as a byte string. */
export function byteStringOf(bytes: Uint8Array, start: number, end: number): ByteString {
  return latin1Slice !== undefined
    ? latin1Slice.call(bytes, start, end)
    : portableByteString(bytes.subarray(start, end));
}

/**
 * `bytesToByteString` in any runtime.
 * @internal Exported for the test that holds the native copy to it.
 */
export function portableByteString(bytes: Uint8Array): ByteString {
  if (bytes.length <= CHUNK) {
    return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) {
    parts.push(
      String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]),
    );
  }
  return parts.join('');
}

// eslint-disable-next-line no-control-regex -- the range starts at NUL on purpose
const NON_ASCII_RUN = /[^\x00-\x7f]+/g;
const encodeRun = (run: string): string => bytesToByteString(utf8Encoder.encode(run));

/**
 * A JS string to the byte string of its UTF-8 encoding. Only the non-ASCII runs are
 * converted, so mostly-ASCII text (nearly every robots.txt) costs one native scan.
 */
export function utf8ByteString(text: string): ByteString {
  return isAscii(text) ? text : text.replace(NON_ASCII_RUN, encodeRun);
}

/** A byte string back to bytes. */
export function byteStringToBytes(text: ByteString): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * A byte string to readable text: decoded as UTF-8, invalid sequences as U+FFFD. For display
 * only (agents, sitemaps, rules as written); matching never uses this.
 */
export function displayText(text: ByteString): string {
  return isAscii(text) ? text : utf8Decoder.decode(byteStringToBytes(text));
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text with each lone surrogate replaced by U+FFFD, as its UTF-8 encoding (and so Google's
 * view of it) has it. Uses the native method where the engine has one (ES2024).
 */
export function wellFormed(text: string): string {
  const native = text as { isWellFormed?(): boolean; toWellFormed?(): string };
  if (native.isWellFormed && native.toWellFormed) {
    return native.isWellFormed() ? text : native.toWellFormed();
  }
  return replaceLoneSurrogates(text);
}

/** `wellFormed` for engines without the ES2024 methods. */
export function replaceLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** `text.indexOf(char, from)`, or `text.length` when there is none. */
export function indexOrLength(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at < 0 ? text.length : at;
}

/** The part of a text that fits a UTF-8 byte budget; see `utf8Prefix`. */
export interface Utf8Prefix {
  /** Characters (UTF-16 units) that fit, or -1 when the budget ends inside a character. */
  cut: number;
  /** UTF-8 bytes of `text.slice(0, cut)`. */
  bytes: number;
  /** Those characters are all ASCII. */
  ascii: boolean;
}

/** Scratch space for `utf8Prefix`, kept between calls up to this size. */
const SCRATCH_LIMIT = 1 << 20;
let scratch: Uint8Array | undefined;

/**
 * How much of `text` fits in `maxBytes` of UTF-8. Native encoding into scratch space is an
 * order of magnitude faster than scanning the text from JavaScript, and it also tells
 * whether the text is ASCII.
 */
export function utf8Prefix(text: string, maxBytes: number): Utf8Prefix {
  const { read, written } = utf8Encoder.encodeInto(
    text,
    scratchBuffer(Math.min(maxBytes, text.length * 3)),
  );
  // encodeInto stops before a character that does not fit whole: unless the budget is
  // used up exactly, Google's byte cut falls inside that character.
  const cut = read === text.length || written === maxBytes ? read : -1;
  return { cut, bytes: written, ascii: read === written };
}

/** `size` bytes of scratch space, reused between calls up to SCRATCH_LIMIT. */
function scratchBuffer(size: number): Uint8Array {
  let buffer = scratch;
  if (!buffer || buffer.length < size) {
    buffer = new Uint8Array(Math.max(size, 4096));
    if (buffer.length <= SCRATCH_LIMIT) scratch = buffer;
  }
  return buffer.subarray(0, size);
}

// eslint-disable-next-line no-control-regex -- the range starts at NUL on purpose
const NEXT_NON_ASCII = /[^\x00-\x7f]/g;

/** Index of the first non-ASCII character at or after `from`, or `text.length`. */
export function nextNonAscii(text: string, from: number): number {
  NEXT_NON_ASCII.lastIndex = from;
  return NEXT_NON_ASCII.exec(text)?.index ?? text.length;
}

/**
 * Where a UTF-8 byte budget runs out in `text[start, end)`: `index` of the first character
 * that does not fit whole (`end` when everything fits) and the `bytes` used before it. When
 * `bytes` is short of the budget there, the budget ends inside that character. ASCII
 * stretches are counted a stretch at a time; only non-ASCII characters are walked.
 */
export function utf8Cut(
  text: string,
  start: number,
  end: number,
  maxBytes: number,
): { index: number; bytes: number } {
  let bytes = 0;
  let i = start;
  while (i < end) {
    const ascii = Math.min(nextNonAscii(text, i), end) - i;
    if (bytes + ascii > maxBytes) return { index: i + (maxBytes - bytes), bytes: maxBytes };
    bytes += ascii;
    i += ascii;
    for (let c = text.charCodeAt(i); i < end && c >= 0x80; c = text.charCodeAt(i)) {
      const units = isSurrogatePair(text, i, end) ? 2 : 1;
      const size = units === 2 ? 4 : c < 0x800 ? 2 : 3;
      if (bytes + size > maxBytes) return { index: i, bytes };
      bytes += size;
      i += units;
    }
  }
  return { index: end, bytes };
}

/** The first `count` UTF-8 bytes (as a byte string) of the character at `index`. */
export function leadingBytes(text: string, index: number, count: number): ByteString {
  const units = isSurrogatePair(text, index, text.length) ? 2 : 1;
  return utf8ByteString(text.slice(index, index + units)).slice(0, count);
}

function isSurrogatePair(text: string, i: number, end: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
}
