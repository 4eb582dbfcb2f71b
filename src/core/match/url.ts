/**
 * The part of a URL that robots.txt rules are matched against: path, params and query,
 * without scheme, authority or fragment; always starting with `/`. Same results as Google's
 * GetPathParamsQuery, including for strings that are not full URLs (`example.com/a` → `/a`,
 * `''` → `/`). The URL is taken as given: no decoding or re-encoding. Like Google's matcher,
 * which keeps the path as a C string, the path ends at its first NUL.
 */
export function pathParamsQuery(url: string): string {
  // Two leading slashes (a scheme-relative URL) are skipped.
  const searchStart = url.length >= 2 && url[0] === '/' && url[1] === '/' ? 2 : 0;
  const earlyPath = firstOf(url, searchStart);
  let protocolEnd = url.indexOf('://', searchStart);
  // A path, params or query before "://" means "://" is not the scheme separator.
  if (earlyPath >= 0 && (protocolEnd < 0 || earlyPath < protocolEnd)) protocolEnd = -1;
  protocolEnd = protocolEnd < 0 ? searchStart : protocolEnd + 3;

  const pathStart = firstOf(url, protocolEnd);
  if (pathStart < 0) return '/';
  const hashAt = url.indexOf('#', searchStart);
  if (hashAt >= 0 && hashAt < pathStart) return '/';
  let pathEnd = hashAt < 0 ? url.length : hashAt;
  // Google's matcher reads the extracted path through `c_str()`: a NUL ends it.
  const nul = url.indexOf('\0', pathStart);
  if (nul >= 0 && nul < pathEnd) pathEnd = nul;
  const path = url.slice(pathStart, pathEnd);
  // The result always starts with "/", also when the URL's path is empty but it has a query.
  return url[pathStart] === '/' ? path : '/' + path;
}

/** Index of the first of "/", "?" or ";" at or after `from`, or -1. */
function firstOf(url: string, from: number): number {
  for (let i = from; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x3b) return i;
  }
  return -1;
}

/** A URL as a crawler will request it (see `requestTarget`). */
export interface RequestTarget {
  /**
   * The URL as it is requested: `scheme://host[:port]` and the request target, with no
   * user info or fragment (neither is sent).
   */
  readonly url: string;
  /** The request target, as sent on the request line (`/caf%C3%A9?q=1`): what rules match. */
  readonly path: string;
  /**
   * The request target differs from the path, params and query of the string given, as
   * `RobotsTxt` reads it: a check of the string as given would have judged another URL.
   */
  readonly changed: boolean;
}

const REQUESTABLE = new Set(['http:', 'https:', 'ftp:']);

/**
 * What a crawler requests for `url`. Every HTTP client a crawler uses (fetch, undici, got,
 * browsers) first parses the URL as the WHATWG URL Standard says, and sends what that gives:
 * dot segments (`..`, `.`, `%2e%2e`) removed, `\` read as `/`, tabs and line breaks dropped,
 * non-ASCII and some ASCII characters %-encoded, the host lower-cased and in punycode, an
 * empty query (`?` alone) dropped. `RobotsTxt` matches a URL as given, as Google does; a
 * crawler that checks `requestTarget(url).url` instead checks exactly what it will request.
 * Undefined for a string that is not an absolute http, https or ftp URL with a host.
 */
export function requestTarget(url: string): RequestTarget | undefined {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return undefined;
  }
  if (!REQUESTABLE.has(parsed.protocol) || parsed.hostname === '') return undefined;
  // The request line holds the path and the query; a `?` with nothing after it is not sent.
  const path = parsed.pathname + parsed.search;
  return {
    url: `${parsed.protocol}//${parsed.host}${path}`,
    path,
    changed: path !== pathParamsQuery(String(url)),
  };
}
