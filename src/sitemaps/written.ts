/**
 * How a sitemap's bytes are written, as far as reading them needs: the byte order marks and
 * blank space that may come before the markup, namespace prefixes, and text handed over as
 * Latin-1 (one character per byte) read back as the UTF-8 it is.
 */

/** The namespaces whose prefix, bound on the root, is read as none (see `boundPrefix`). */
const NAMESPACES = new Set([
  'http://www.sitemaps.org/schemas/sitemap/0.9',
  'http://www.google.com/schemas/sitemap/0.84',
  'http://www.w3.org/2005/Atom',
]);

/** A UTF-8 byte order mark, read as Latin-1. */
export const UTF8_BOM = '\u00ef\u00bb\u00bf';
/** UTF-16's byte order marks (little and big end first), read as Latin-1. */
export const UTF16_MARKS = ['\u00ff\u00fe', '\u00fe\u00ff'];
/** The byte order marks a file may start with. */
export const MARKS = [UTF8_BOM, ...UTF16_MARKS];

/** The index of the first character of `text` from `from` that is not blank, or its length. */
export function firstNonBlank(text: string, from: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
  }
  return i;
}

/** Text read as Latin-1 back to what its UTF-8 bytes say (ASCII, the usual case, as it is). */
export function fromBytes(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(text)) return text;
  const decoded = Buffer.from(text, 'latin1').toString('utf8');
  // A character reference above U+00FF is no byte: then the text was not bytes.
  return decoded.includes('\ufffd') ? text : decoded;
}

/**
 * `p:` when the root element `p:name` binds `p` to a sitemap or Atom namespace on itself (the
 * place generators put it), else empty: then its elements are read by their local names.
 */
export function boundPrefix(name: string, attributes: Record<string, unknown>): string {
  const colon = name.indexOf(':');
  if (colon <= 0) return '';
  const uri = attributes[`xmlns:${name.slice(0, colon)}`];
  return typeof uri === 'string' && NAMESPACES.has(uri) ? name.slice(0, colon + 1) : '';
}
