import { InvalidInputError } from '../errors.ts';
import { bytesToByteString, utf8ByteString, type ByteString } from '../text/bytes.ts';
import { Source } from '../text/source.ts';
import { tokenize, type TokenHandler } from './tokenizer.ts';

/** Google ignores everything after the first 500 KiB of a robots.txt. */
export const DEFAULT_MAX_BYTES = 512_000;

/** A robots.txt body: text, or the bytes as served (not necessarily valid UTF-8). */
export type RobotsBody = string | Uint8Array | ArrayBuffer;

/**
 * Runs the shared tokenizer over a body with your own handler (linting, statistics...): the
 * seam between reading a file and using it, as google/robotstxt's `ParseRobotsTxt(body,
 * handler)`. The group builder (for matching) and the linter are two such handlers.
 *
 * @param maxBytes - Bytes read; the rest is ignored, as Google ignores it.
 * @defaultValue maxBytes: 512,000 (500 KiB)
 * @throws InvalidInputError when `body` is not a string, `Uint8Array` or `ArrayBuffer`.
 */
export function tokenizeBody(
  body: RobotsBody,
  handler: TokenHandler,
  maxBytes = DEFAULT_MAX_BYTES,
): {
  /** Lines read (as Google counts them). */
  lineCount: number;
  /** The body's size in bytes. */
  total: number;
  /** Bytes read. */
  read: number;
} {
  const { text, total } = toLimitedByteString(body, maxBytes);
  return { lineCount: tokenize(Source.ofBytes(text), handler), total, read: text.length };
}

/**
 * The first `maxBytes` of a body as a byte string, its size in bytes, and the first byte past
 * the limit (undefined when the body is within it), which says whether the cut ends a line.
 */
export function toLimitedByteString(
  body: RobotsBody,
  maxBytes: number,
): { text: ByteString; total: number; next: number | undefined } {
  if (typeof body === 'string') {
    const text = utf8ByteString(body);
    const cut = text.length > maxBytes;
    return {
      text: cut ? text.slice(0, maxBytes) : text,
      total: text.length,
      next: cut ? text.charCodeAt(maxBytes) : undefined,
    };
  }
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) {
    const bytes = body instanceof Uint8Array ? body : new Uint8Array(body);
    return {
      text: bytesToByteString(bytes.subarray(0, maxBytes)),
      total: bytes.length,
      next: bytes[maxBytes],
    };
  }
  throw new InvalidInputError(
    'body',
    `expected a string, Uint8Array or ArrayBuffer, got ${body === null ? 'null' : typeof body}`,
  );
}

/**
 * Whether the size limit falls inside a line, given the last byte read and the first one
 * not read: neither is a line end (and something was read). Then that line is read in part.
 */
export function cutsInsideLine(
  lastRead: number | undefined,
  firstUnread: number | undefined,
): boolean {
  const ends = (c: number | undefined) => c === 0x0a || c === 0x0d;
  // Nothing read (charCodeAt(-1) is NaN, bytes[-1] undefined): no line to cut.
  const readSomething = lastRead !== undefined && !Number.isNaN(lastRead);
  return readSomething && !ends(lastRead) && !ends(firstUnread);
}
