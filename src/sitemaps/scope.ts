/**
 * Google's scope for the URLs of a sitemap: those under the sitemap's own host and directory
 * (`/catalog/sitemap.xml` lists `/catalog/...`), or of any path on a host whose robots.txt
 * named the sitemap (cross-submission). An index lists sitemaps of its own host.
 */

/** The last sitemap's scope, parsed once for all its entries. */
let last: { sitemap: string; origin: string; directory: string } | undefined;

/** Whether `target` may be listed by the sitemap at `sitemap`, named in the robots.txt of `namedBy`. */
export function inScope(target: URL, sitemap: string, namedBy: ReadonlySet<string>): boolean {
  if (namedBy.has(target.origin)) return true;
  if (last?.sitemap !== sitemap) {
    const home = new URL(sitemap);
    const directory = home.pathname.slice(0, home.pathname.lastIndexOf('/') + 1);
    last = { sitemap, origin: home.origin, directory };
  }
  return target.origin === last.origin && target.pathname.startsWith(last.directory);
}

/** Whether an index at `index` may list the sitemap at `url`. */
export function sameSite(url: string, index: string, namedBy: ReadonlySet<string>): boolean {
  try {
    const origin = new URL(url).origin;
    return origin === new URL(index).origin || namedBy.has(origin);
  } catch {
    return false;
  }
}
