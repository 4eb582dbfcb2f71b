/**
 * What a file is, before what its lines say: an HTML page, UTF-16 text or binary data
 * served as robots.txt has no rule Google can use, and is one error rather than a warning
 * on every line.
 */
import type { Diagnostic, DiagnosticCode } from './types.ts';
import type { Add } from './types.ts';
import { notRobotsTxt, type NotRobotsTxt } from '../text/file-kind.ts';

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
  const kind = notRobotsTxt(head);
  if (kind) add(kind, 1, 1, NOT_ROBOTS_TXT[kind]);
  return kind;
}

/** What each kind of body that is no robots.txt is told. */
const NOT_ROBOTS_TXT: Record<NotRobotsTxt, string> = {
  'utf-16':
    'this file is UTF-16 text: Google reads robots.txt as UTF-8, so it finds no rule in it (save it as UTF-8)',
  'binary-content': 'this is binary data, not a robots.txt: no rule in it applies',
  'html-content':
    'this is an HTML page, not a robots.txt: no rule in it applies (is the server answering 200 for a missing file?)',
};

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
