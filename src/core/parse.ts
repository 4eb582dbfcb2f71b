import { InvalidInputError } from './errors.ts';
import { keepShapeOf } from './shapes.ts';
import { PROFILES, type ProfileName } from './profiles/index.ts';
import {
  cutsInsideLine,
  DEFAULT_MAX_BYTES,
  toLimitedByteString,
  type RobotsBody,
} from './tokens/body.ts';
import { NATIVE_BYTE_STRINGS, utf8Cut, utf8Prefix } from './text/bytes.ts';
import { GroupBuilder, keepBuilderShape } from './model/groups.ts';
import { showColumnPaths } from './model/columns.ts';
import { LARGE_BODY, Source } from './text/source.ts';
import { keepTokenizerShape } from './tokens/tokenizer.ts';
import { keepPathCharsShape } from './match/path-chars.ts';
import { RobotsTxt } from './answers/robots-txt.ts';

/** How `parse()` reads a body. */
export interface ParseOptions {
  /** `google` (default), `rfc9309` or `legacy`: docs/profiles.md lists the differences. */
  profile?: ProfileName;
  /** Bytes of the body that are read; the rest is ignored. Default 512,000 (500 KiB). */
  maxBytes?: number;
}

/** Strict UTF-8, the BOM kept (the tokenizer skips it as Google does, and counts columns). */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parses a robots.txt body. Never throws on content: every byte sequence parses, leniently,
 * the way Google parses. Throws `InvalidInputError` only for a body that is not text or
 * bytes, or an invalid option.
 */
export function parse(body: RobotsBody, options?: ParseOptions): RobotsTxt {
  if (!shapesKept) keepShapes();
  // The usual call gives no options: nothing to check.
  if (options === undefined && body instanceof Uint8Array && NATIVE_BYTE_STRINGS) {
    return parseByteArray(PROFILES.google, body, DEFAULT_MAX_BYTES);
  }
  options ??= {};
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
      const sizes = () => {
        const total = utf8Cut(body, 0, body.length, Infinity).bytes;
        return { total, read: prefix && cut < body.length ? prefix.bytes : total };
      };
      const cutMidLine =
        cut < body.length && cutsInsideLine(body.charCodeAt(cut - 1), body.charCodeAt(cut));
      return parseText(profile, text, prefix?.ascii, sizes, cutMidLine);
    }
  } else if (body instanceof Uint8Array || body instanceof ArrayBuffer) {
    // Where the runtime copies bytes into a byte string natively (Node, Bun), that is
    // cheaper than decoding them; elsewhere the engine's UTF-8 decoder is.
    return NATIVE_BYTE_STRINGS
      ? parseBytes(profile, body, maxBytes)
      : parseDecoded(profile, body, maxBytes);
  }
  return parseBytes(profile, body, maxBytes);
}

/**
 * Bytes that are valid UTF-8 (nearly every file) decoded natively, once, and parsed as text,
 * which gives the same result as the byte path (the text-bytes tests check it); invalid
 * UTF-8, or a limit that cuts a character, takes the byte path.
 * @internal Exported for the tests that hold it to the byte path.
 */
export function parseDecoded(
  profile: (typeof PROFILES)[ProfileName],
  body: Uint8Array | ArrayBuffer,
  maxBytes = DEFAULT_MAX_BYTES,
): RobotsTxt {
  const bytes = body instanceof Uint8Array ? body : new Uint8Array(body);
  const read = readPart(bytes, maxBytes);
  const text = decodeStrict(read);
  if (text === undefined) return parseBytes(profile, body, maxBytes);
  const sizes = { total: bytes.length, read: read.length };
  const ascii = text.length === read.length;
  return parseText(profile, text, ascii, sizes, cutsMidLine(bytes, read.length));
}

/**
 * The byte path: the body as a byte string, one character per byte, as Google reads it (a
 * large body of bytes in pieces, see `Source.ofLargeBytes`).
 * @internal Exported for the tests that hold it to the text path.
 */
export function parseBytes(
  profile: (typeof PROFILES)[ProfileName],
  body: RobotsBody,
  maxBytes = DEFAULT_MAX_BYTES,
): RobotsTxt {
  if (body instanceof Uint8Array) return parseByteArray(profile, body, maxBytes);
  if (body instanceof ArrayBuffer) return parseByteArray(profile, new Uint8Array(body), maxBytes);
  // Text (or not a body at all, which this throws a typed error for).
  const { text, total, next } = toLimitedByteString(body, maxBytes);
  const cutMidLine = text.length < total && cutsInsideLine(text.charCodeAt(text.length - 1), next);
  return build(profile, Source.ofBytes(text), { total, read: text.length }, cutMidLine);
}

/** `parseBytes` for bytes (the usual call). */
function parseByteArray(
  profile: (typeof PROFILES)[ProfileName],
  bytes: Uint8Array,
  maxBytes: number,
): RobotsTxt {
  const read = readPart(bytes, maxBytes);
  const source = read.length > LARGE_BODY ? Source.ofLargeBytes(read) : Source.ofByteArray(read);
  const sizes = { total: bytes.length, read: read.length };
  return build(profile, source, sizes, cutsMidLine(bytes, read.length));
}

/** The bytes that are read: the first `maxBytes`. */
function readPart(bytes: Uint8Array, maxBytes: number): Uint8Array {
  return bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes;
}

/** The size limit, `read` bytes in, falls inside a line (see `cutsInsideLine`). */
function cutsMidLine(bytes: Uint8Array, read: number): boolean {
  return read < bytes.length && cutsInsideLine(bytes[read - 1], bytes[read]);
}

/** Groups built from `source`, as the result. */
function build(
  profile: (typeof PROFILES)[ProfileName],
  source: Source,
  sizes: Sizes,
  cutMidLine: boolean,
): RobotsTxt {
  const builder = new GroupBuilder(profile, source);
  // A large body's bytes are all read here, before this returns.
  const lineCount = builder.build();
  return new RobotsTxt(profile, builder.finish(), lineCount, sizes, cutMidLine);
}

type Sizes = { total: number; read: number } | (() => { total: number; read: number });

function parseText(
  profile: (typeof PROFILES)[ProfileName],
  text: string,
  ascii: boolean | undefined,
  sizes: Sizes,
  cutMidLine: boolean,
): RobotsTxt {
  return build(profile, Source.ofText(text, ascii), sizes, cutMidLine);
}

function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

let shapesKept = false;

/**
 * Samples of the parse's short-lived objects (see shapes.ts), and of its results, each
 * checked once (results, rule indexes and selections): a service whose cache churns frees
 * them all, and the checks after that ran on code being re-optimized. Made at the first
 * parse, not at load, so that importing one function of the core (a bundle of the web
 * tester's page) does not run the parser.
 */
function keepShapes(): void {
  shapesKept = true;
  keepTokenizerShape();
  keepBuilderShape();
  keepPathCharsShape();
  for (const body of ['User-agent: *\nDisallow: /a\nAllow: /a/b*\n', new Uint8Array([0x55])]) {
    const sample = parse(body);
    sample.verdict('https://example.com/a', 'Googlebot', { withRule: true });
    keepShapeOf(sample);
  }
  // A directory asked about where an index.html is allowed: its selection's index becomes an
  // aliased one (Google's index.html alias), a class no other kept object has.
  const aliased = parse('User-agent: *\nDisallow: /a/\nAllow: /a/index.html\n');
  aliased.isAllowed('https://example.com/a/', 'Googlebot');
  keepShapeOf(aliased);
  showRarePaths();
}

/**
 * Shows the engine the parser's rare paths before it optimizes the parser (see
 * `rarePathSamples`): a column's typed storage (see `showColumnPaths`), then the samples, each
 * twice (the engine collects a function's feedback from about its eighth call on, and some
 * of the functions on these paths run once a parse).
 */
function showRarePaths(): void {
  showColumnPaths();
  const [main, beforeGroups] = rarePathSamples();
  for (const body of [main, main, beforeGroups, beforeGroups]) parse(body);
}

/**
 * Bodies that take the parse's rare paths, parsed at the first parse. The engine optimizes
 * the parser after a few hundred files and, for a path none of them took, has no type
 * feedback, so the first file that takes it throws the optimized code away: three to seven
 * such deoptimizations in a fresh process's first pass over the corpus (a user-agent value
 * that is not ASCII, rules before any group, and a column's typed storage, which
 * `showColumnPaths` takes), none after. A large sample that took the typed paths through the
 * parser instead halved the pace of a process that only parses small files (the outside
 * harness's W4a, 8 to 16 µs a check), so those are shown to the column alone, in a few
 * dozen calls; the first parse costs about 1 ms more. Two paths are still met unseen in
 * some processes, and left: the sitemaps table's `seal` giving back room (a file of more
 * than a thousand sitemaps) and a rule index's pattern branch.
 * @internal Exported for the test that holds each path taken.
 */
export function rarePathSamples(): [main: Uint8Array, beforeGroups: Uint8Array] {
  // The value that is not ASCII comes after others, so that the engine collects its feedback.
  const lines = [...[...'abcdefghij'].map((c) => `User-agent: b${c}`), 'User-agent: b\u00e9t'];
  // Ten runs of rules, so that the engine collects the builder's feedback for them before the
  // second body's run before any group.
  for (let i = 0; i < 10; i++) lines.push(`Disallow: /p${i}`, `X-${i}: y`);
  const encoder = new TextEncoder();
  return [
    encoder.encode(lines.join('\n') + '\n'),
    encoder.encode('Disallow: /before-any-group\nUser-agent: *\nDisallow: /x\n'),
  ];
}
