import type { ByteString } from '../text/bytes.ts';

const HEX = '0123456789ABCDEF';

function isHex(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x46) ||
    (code >= 0x61 && code <= 0x66)
  );
}

function hexValue(code: number): number {
  return code <= 0x39 ? code - 0x30 : (code | 0x20) - 0x57;
}

function percent(byte: number): string {
  return '%' + HEX[byte >> 4]! + HEX[byte & 15]!;
}

/**
 * Google's MaybeEscapePattern: octets ≥ 0x80 become `%XX`, and the hex digits of existing
 * `%xx` escapes are upper-cased. Everything else, `*` and `$` included, is kept.
 */
export function googleEscape(value: ByteString): ByteString {
  // Unchanged stretches are copied whole: most escapes (`%2F`...) are upper-case already.
  let out = '';
  let copied = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // Reads stay within the value (a read past the end makes the engine drop its fast code).
    if (
      c === 0x25 &&
      i + 2 < value.length &&
      isHex(value.charCodeAt(i + 1)) &&
      isHex(value.charCodeAt(i + 2))
    ) {
      if (value.charCodeAt(i + 1) >= 0x61 || value.charCodeAt(i + 2) >= 0x61) {
        out += value.slice(copied, i) + '%' + value.slice(i + 1, i + 3).toUpperCase();
        copied = i + 3;
      }
      i += 2;
    } else if (c >= 0x80) {
      out += value.slice(copied, i) + percent(c);
      copied = i + 1;
    }
  }
  return copied === 0 ? value : out + value.slice(copied);
}

function isUnreserved(code: number): boolean {
  // RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~"
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e
  );
}

/** RFC 3986 reserved characters: gen-delims and sub-delims. */
function isReserved(code: number): boolean {
  switch (code) {
    case 0x3a: // :
    case 0x2f: // /
    case 0x3f: // ?
    case 0x23: // #
    case 0x5b: // [
    case 0x5d: // ]
    case 0x40: // @
    case 0x21: // !
    case 0x24: // $
    case 0x26: // &
    case 0x27: // '
    case 0x28: // (
    case 0x29: // )
    case 0x2a: // *
    case 0x2b: // +
    case 0x2c: // ,
    case 0x3b: // ;
    case 0x3d: // =
      return true;
    default:
      return false;
  }
}

/**
 * RFC 9309 §2.2.2 normalisation of a byte string, the same for a URL's path and a rule's:
 * `%XX` of unreserved characters decoded, other escapes upper-cased, non-ASCII octets and
 * reserved characters %-encoded, except the delimiters that give a URL its shape (`/`, `?`,
 * `=` and `&`), which stay as they are wherever they stand. In a pattern (`isPattern`) `*`
 * and a final `$` stay special; a `%2A` or `%24` there then matches a literal `*` or `$` in a
 * URL (§2.2.3).
 *
 * The same in the path as in the query, on purpose: a pattern's `*` can stand for the end of
 * the path and the start of the query alike (`/*sessionid=`, `/*?c`), so a pattern cannot be
 * told which of the two its later characters will meet. Normalising by position made
 * `Disallow: /*sessionid=` (its `=` encoded as in a path) miss `/a?sessionid=1`. The cost: a
 * `/` in a query is not the same as `%2F` there (the RFC's table writes
 * `?baz=http://foo.bar` as `?baz=http%3A%2F%2Ffoo.bar`; here it is `?baz=http%3A//foo.bar`,
 * and the `%2F` spelling is another URL, as it is for Google).
 */
export function rfc9309Normalize(value: ByteString, isPattern: boolean): ByteString {
  let out = '';
  const last = value.length - 1;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x25 && isHex(value.charCodeAt(i + 1)) && isHex(value.charCodeAt(i + 2))) {
      const byte = hexValue(value.charCodeAt(i + 1)) * 16 + hexValue(value.charCodeAt(i + 2));
      out += isUnreserved(byte) ? String.fromCharCode(byte) : percent(byte);
      i += 2;
    } else if (c >= 0x80) {
      out += percent(c);
    } else if (isPattern && (c === 0x2a || (c === 0x24 && i === last))) {
      out += value[i];
    } else if (isReserved(c) && !isDelimiter(c)) {
      out += percent(c);
    } else {
      out += value[i];
    }
  }
  return out;
}

/** `/`, `?`, `=` and `&`: what gives a URL its shape, kept in path and query alike. */
function isDelimiter(code: number): boolean {
  return code === 0x2f || code === 0x3f || code === 0x3d || code === 0x26;
}

/**
 * The 1996 standard: `%XX` escapes are decoded to octets before comparison, except `%2F`,
 * which must match exactly (kept as `%2F`, hex upper-cased).
 */
export function legacyDecode(value: ByteString): ByteString {
  if (value.indexOf('%') < 0) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x25 && isHex(value.charCodeAt(i + 1)) && isHex(value.charCodeAt(i + 2))) {
      const byte = hexValue(value.charCodeAt(i + 1)) * 16 + hexValue(value.charCodeAt(i + 2));
      out += byte === 0x2f ? '%2F' : String.fromCharCode(byte);
      i += 2;
    } else {
      out += value[i];
    }
  }
  return out;
}

/**
 * The literal text every match starts with: the pattern up to its first `*`, without a
 * final `$` (what a prefix index sorts by). Without wildcards, the whole pattern.
 */
export function literalPrefix(pattern: string, wildcards: boolean): string {
  if (!wildcards) return pattern;
  const star = pattern.indexOf('*');
  if (star >= 0) return pattern.slice(0, star);
  return pattern.endsWith('$') ? pattern.slice(0, -1) : pattern;
}
