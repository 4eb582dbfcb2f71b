/**
 * The part of a URL that robots.txt rules are matched against: path, params and query,
 * without scheme, authority or fragment; always starting with `/`. Same results as Google's
 * GetPathParamsQuery, including for strings that are not full URLs (`example.com/a` → `/a`,
 * `''` → `/`). The URL is taken as given: no decoding or re-encoding.
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
  const pathEnd = hashAt < 0 ? url.length : hashAt;
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
