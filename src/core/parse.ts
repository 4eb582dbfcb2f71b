import {
  bytesToByteString,
  utf8ByteString,
  utf8Cut,
  utf8Prefix,
  type ByteString,
} from './bytes.ts';
import { InvalidInputError } from './errors.ts';
import { GroupBuilder } from './groups.ts';
import { PROFILES, type ProfileName } from './profiles.ts';
import { RobotsTxt } from './robots.ts';
import { skim, tokenize, type TokenHandler } from './tokenizer.ts';

/** Google ignores everything after the first 500 KiB of a robots.txt. */
export const DEFAULT_MAX_BYTES = 512_000;

export interface ParseOptions {
  /** `google` (default), `rfc9309` or `legacy`: see the README for the differences. */
  profile?: ProfileName;
  /** Bytes of the body that are read; the rest is ignored. Default 512,000 (500 KiB). */
  maxBytes?: number;
}

/** A robots.txt body: text, or the bytes as served (not necessarily valid UTF-8). */
export type RobotsBody = string | Uint8Array | ArrayBuffer;

/**
 * Parses a robots.txt body. Never throws on content: every byte sequence parses, leniently,
 * the way Google parses. Throws `InvalidInputError` only for a body that is not text or
 * bytes, or an invalid option.
 */
export function parse(body: RobotsBody, options: ParseOptions = {}): RobotsTxt {
  const name = options.profile ?? 'google';
  if (!Object.hasOwn(PROFILES, name)) {
    throw new InvalidInputError(
      'options.profile',
      `unknown profile ${JSON.stringify(options.profile)}; use google, rfc9309 or legacy`,
    );
  }
  const profile = PROFILES[name];
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new InvalidInputError(
      'options.maxBytes',
      `must be a non-negative integer, got ${maxBytes}`,
    );
  }
  // Text is tokenized as it is, without conversion to bytes (see tokenize()), unless the
  // size limit falls inside a character.
  if (typeof body === 'string') {
    // A UTF-16 unit is at most 3 UTF-8 bytes: text that short is within the limit unmeasured,
    // and whether it is ASCII is left to the group builder, to find out if a rule needs it.
    const prefix = body.length * 3 <= maxBytes ? undefined : utf8Prefix(body, maxBytes);
    const cut = prefix ? prefix.cut : body.length;
    if (cut >= 0) {
      const text = cut < body.length ? body.slice(0, cut) : body;
      const builder = new GroupBuilder(profile, text, true, prefix?.ascii);
      const lineCount = skim(text, builder, true, prefix?.ascii);
      return new RobotsTxt(profile, builder.finish(), lineCount, () => {
        const total = utf8Cut(body, 0, body.length, Infinity).bytes;
        return { total, read: prefix && cut < body.length ? prefix.bytes : total };
      });
    }
  }
  const { text, total } = toLimitedByteString(body, maxBytes);
  const builder = new GroupBuilder(profile, text);
  const lineCount = skim(text, builder);
  return new RobotsTxt(profile, builder.finish(), lineCount, { total, read: text.length });
}

/** Runs the shared tokenizer over a body with your own handler (linting, statistics...). */
export function tokenizeBody(
  body: RobotsBody,
  handler: TokenHandler,
  maxBytes = DEFAULT_MAX_BYTES,
): { lineCount: number; total: number; read: number } {
  const { text, total } = toLimitedByteString(body, maxBytes);
  return { lineCount: tokenize(text, handler), total, read: text.length };
}

export function toLimitedByteString(
  body: RobotsBody,
  maxBytes: number,
): { text: ByteString; total: number } {
  if (typeof body === 'string') {
    const text = utf8ByteString(body);
    return { text: text.length > maxBytes ? text.slice(0, maxBytes) : text, total: text.length };
  }
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) {
    const bytes = body instanceof Uint8Array ? body : new Uint8Array(body);
    return { text: bytesToByteString(bytes.subarray(0, maxBytes)), total: bytes.length };
  }
  throw new InvalidInputError(
    'body',
    `expected a string, Uint8Array or ArrayBuffer, got ${body === null ? 'null' : typeof body}`,
  );
}
