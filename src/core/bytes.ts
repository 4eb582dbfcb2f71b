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
const utf8Decoder = new TextDecoder('utf-8');
// String.fromCharCode.apply has an argument-count limit; stay well below it.
const CHUNK = 8192;

export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** Bytes to a byte string, one char per byte. */
export function bytesToByteString(bytes: Uint8Array): ByteString {
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

/**
 * Where a UTF-8 byte budget runs out in `text[start, end)`: the index of the first character
 * that no longer fits, `end` when everything fits, or -1 when the budget ends inside a
 * multi-byte character (the caller then needs byte-level handling).
 */
export function utf8Cut(text: string, start: number, end: number, maxBytes: number): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    let size = c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    let units = 1;
    if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 && i + 1 < end) {
      size = 4;
      units = 2;
    }
    if (bytes + size > maxBytes) return bytes === maxBytes ? i : -1;
    bytes += size;
    i += units - 1;
  }
  return end;
}
