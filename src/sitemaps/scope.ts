/**
 * Google's scope for the URLs of a sitemap: those under the sitemap's own host and directory
 * (`/catalog/sitemap.xml` lists `/catalog/...`), or of any path on a host whose robots.txt
 * named the sitemap (cross-submission). An index lists sitemaps of its own host.
 */

/** Whether `url` may be listed by the sitemap at `sitemap`, named in the robots.txt of `namedBy`. */
export function inScope(url: string, sitemap: string, namedBy: ReadonlySet<string>): boolean {
  let target: URL;
  let home: URL;
  try {
    target = new URL(url);
    home = new URL(sitemap);
  } catch {
    return false;
  }
  if (namedBy.has(target.origin)) return true;
  if (target.origin !== home.origin) return false;
  const directory = home.pathname.slice(0, home.pathname.lastIndexOf('/') + 1);
  return target.pathname.startsWith(directory);
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
