/**
 * Google's scope for the URLs of a sitemap: those under the sitemap's own host and directory
 * (`/catalog/sitemap.xml` lists `/catalog/...`), or of any path on a host whose robots.txt
 * named the sitemap (cross-submission). An index lists sitemaps of its own host. A robots.txt
 * names sitemaps by absolute URL only.
 */
import { httpUrl } from '../fetch/internal.ts';

/** A sitemap's scope, parsed once for all its entries. */
export interface SitemapScope {
  origin: string;
  /** Its path up to the last `/`. */
  directory: string;
  /** The origins whose robots.txt named it. */
  namedBy: ReadonlySet<string>;
}

export function scopeOf(sitemap: string, namedBy: ReadonlySet<string>): SitemapScope {
  const home = new URL(sitemap);
  const directory = home.pathname.slice(0, home.pathname.lastIndexOf('/') + 1);
  return { origin: home.origin, directory, namedBy };
}

/** Whether the sitemap of `scope` may list the page `target` (whose origin is `origin`). */
export function inScope(target: URL, origin: string, scope: SitemapScope): boolean {
  if (scope.namedBy.has(origin)) return true;
  return origin === scope.origin && target.pathname.startsWith(scope.directory);
}

/** Whether the index of `scope` may list the sitemap `target`. */
export function sameSite(target: URL, scope: SitemapScope): boolean {
  return target.origin === scope.origin || scope.namedBy.has(target.origin);
}

/**
 * The `Sitemap:` values of a site's robots.txt that are read (`named`, each once): absolute
 * http(s) URLs, as Google requires (it resolves no relative one); the others are `refused`.
 */
export function namedSitemaps(values: readonly string[]): { named: string[]; refused: string[] } {
  const named = new Set<string>();
  const refused: string[] = [];
  for (const value of values) {
    const url = httpUrl(value);
    if (url) named.add(url.href);
    else refused.push(value);
  }
  return { named: [...named], refused };
}
