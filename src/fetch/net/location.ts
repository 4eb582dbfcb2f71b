import { serialisedOrigin } from '../../core/internal.ts';
import { InvalidUrlError } from '../errors.ts';

const SCHEMES = new Set(['http:', 'https:', 'ftp:']);

/** Where a page's robots.txt lives, and the origin its rules govern. */
export interface RobotsLocation {
  /** `scheme://host[:port]/robots.txt`. */
  readonly robotsUrl: string;
  /** `scheme://host[:port]`: the cache key; rules apply to this origin only. */
  readonly origin: string;
}

/**
 * The robots.txt URL for a page: same scheme, host and port, path `/robots.txt`; user info,
 * query and fragment dropped. Default ports (80, 443, 21) are the same as none, IDN hosts
 * are written in punycode (so both spellings are one origin), a final dot is dropped
 * (`site.test.` is `site.test`), IPv4 and IPv6 literals are kept.
 * Throws `InvalidUrlError` for a URL that does not parse or is not http, https or ftp.
 */
export function robotsUrl(pageUrl: string): string {
  return locate(pageUrl).robotsUrl;
}

export function locate(pageUrl: string): RobotsLocation {
  // A URL whose scheme, host and port the parser would keep as they are (most a crawler
  // meets) is read without a parse: this runs for every check, cached ones included.
  const serialised = serialisedOrigin(String(pageUrl));
  if (serialised !== undefined)
    return { origin: serialised, robotsUrl: `${serialised}/robots.txt` };
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    throw new InvalidUrlError(pageUrl, 'not an absolute URL');
  }
  if (!SCHEMES.has(url.protocol)) {
    throw new InvalidUrlError(
      pageUrl,
      `scheme ${url.protocol} has no robots.txt (use http, https or ftp)`,
    );
  }
  // URL already lower-cases the host, converts IDN to punycode, reads IPv4 in any form
  // (`0x7f.1`) as dotted decimal and drops default ports. A name's final dot (the DNS root,
  // `site.test.`) names the same host: one origin, one robots.txt, one politeness turn.
  let end = url.hostname.length;
  while (end > 0 && url.hostname.charCodeAt(end - 1) === 0x2e) end--;
  const name = url.hostname.slice(0, end);
  const host = url.port ? `${name}:${url.port}` : name;
  if (name === '') throw new InvalidUrlError(pageUrl, 'no host');
  const origin = `${url.protocol}//${host}`;
  return { origin, robotsUrl: `${origin}/robots.txt` };
}

/**
 * `text` as an absolute http(s) URL (against `base` when given), or undefined: what a
 * `Sitemap:`, `License:` or `<loc>` value must be for repkit to follow it.
 */
export function httpUrl(text: string, base?: string): URL | undefined {
  try {
    const url = new URL(text, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
