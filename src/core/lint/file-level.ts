/**
 * What a file is, before what its lines say: an HTML page, UTF-16 text or binary data
 * served as robots.txt has no rule Google can use, and is one error rather than a warning
 * on every line.
 */
import type { Diagnostic, DiagnosticCode } from './types.ts';
import type { Add } from './types.ts';

/** Codes that say the whole file is not a robots.txt. */
const FILE_LEVEL: ReadonlySet<DiagnosticCode> = new Set([
  'html-content',
  'utf-16',
  'binary-content',
]);
/** Per-line codes that follow from such a file, and are folded into its one error. */
const LINE_NOISE: ReadonlySet<DiagnosticCode> = new Set([
  'unparsable-line',
  'unknown-key',
  'nul-byte',
  'invalid-utf8',
  'missing-colon',
]);

/**
 * Looks at the head of the file (`head`: its first bytes) and adds a file-level error for an
 * HTML page, UTF-16 text or binary data; returns the code added, if any. Also notes a BOM.
 */
export function checkWholeFile(head: Uint8Array, add: Add): DiagnosticCode | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    add('bom', 1, 1, 'a UTF-8 byte order mark: Google skips it');
  if (isUtf16(head)) {
    add(
      'utf-16',
      1,
      1,
      'this file is UTF-16 text: Google reads robots.txt as UTF-8, so it finds no rule in it (save it as UTF-8)',
    );
    return 'utf-16';
  }
  if (isBinary(head)) {
    add('binary-content', 1, 1, 'this is binary data, not a robots.txt: no rule in it applies');
    return 'binary-content';
  }
  const text = new TextDecoder().decode(head).trimStart().toLowerCase();
  if (text.startsWith('<') && /<(!doctype html|html|head|body)[\s>]/.test(text)) {
    add(
      'html-content',
      1,
      1,
      'this is an HTML page, not a robots.txt: no rule in it applies (is the server answering 200 for a missing file?)',
    );
    return 'html-content';
  }
  return undefined;
}

/** The diagnostics without the per-line noise a file-level error explains, counted in it. */
export function withoutLineNoise(diagnostics: Diagnostic[], code: DiagnosticCode): Diagnostic[] {
  const noise = diagnostics.filter((d) => LINE_NOISE.has(d.code));
  if (noise.length === 0) return diagnostics;
  const lines = new Set(noise.map((d) => d.line)).size;
  return diagnostics
    .filter((d) => !LINE_NOISE.has(d.code))
    .map((d) =>
      d.code === code
        ? { ...d, message: `${d.message}; ${lines} line(s) of it are not robots.txt lines` }
        : d,
    );
}

/** File-level diagnostics sort first. */
export function fileRank(d: Diagnostic): number {
  return FILE_LEVEL.has(d.code) ? 0 : 1;
}

/** A UTF-16 byte-order mark, or NUL in every other byte of mostly-ASCII text. */
function isUtf16(head: Uint8Array): boolean {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  const pairs = Math.min(head.length >> 1, 64);
  if (pairs < 8) return false;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0) evenNul++;
    if (head[2 * i + 1] === 0) oddNul++;
  }
  return Math.max(evenNul, oddNul) >= pairs * 0.9 && Math.min(evenNul, oddNul) <= pairs * 0.1;
}

/** Control bytes (NUL included) in more than a tenth of the head: not text. */
function isBinary(head: Uint8Array): boolean {
  let control = 0;
  for (const byte of head) if (byte < 0x09 || (byte > 0x0d && byte < 0x20)) control++;
  return head.length > 0 && control > head.length * 0.1;
}
