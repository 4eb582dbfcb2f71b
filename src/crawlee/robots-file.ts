import { RobotsTxtFile, Sitemap } from 'crawlee';
import type { RobotsClient, RobotsState } from '../fetch/index.ts';
import { clientSeam } from '../fetch/internal.ts';
import { keeps } from './admission.ts';
import { readSitemaps } from '../sitemaps/index.ts';

/** Options of Crawlee's `RobotsTxtFile.getSitemaps` (which sitemap hosts to keep). */
export type SitemapOptions = Parameters<RobotsTxtFile['getSitemaps']>[0];

/** Behind `repkit/crawlee`'s `RepkitRobotsTxtFile` (documented there). */
export class RepkitRobotsTxtFile {
  readonly #client: RobotsClient;
  readonly #state: RobotsState;
  readonly #proxyUrl: string | undefined;

  constructor(client: RobotsClient, state: RobotsState, proxyUrl?: string) {
    this.#client = client;
    this.#state = state;
    this.#proxyUrl = proxyUrl;
  }

  /** Where this robots.txt is (or would be). */
  get url(): string {
    return this.#state.location.robotsUrl;
  }

  /**
   * Whether the crawler may fetch `url` by this file (the client's crawler names decide;
   * Crawlee's `userAgent` argument is not used). URLs of other origins are left to the check
   * made when their turn comes: true.
   */
  isAllowed(url: string, _userAgent?: string): boolean {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return true;
    }
    if (origin !== this.#state.location.origin) return true;
    return keeps(clientSeam(this.#client).verdict(url, this.#state));
  }

  /**
   * The file's `Sitemap:` URLs (as repkit parsed them), filtered as Crawlee's
   * `RobotsTxtFile.getSitemaps` filters them (same hostname by default, http(s) only).
   */
  getSitemaps(options?: SitemapOptions): string[] {
    return this.#crawleeView().getSitemaps(options);
  }

  /** Crawlee's `Sitemap` of the URLs of every sitemap `getSitemaps` gives (see `parseUrlsFromSitemaps`). */
  async parseSitemaps(options?: SitemapOptions): Promise<Sitemap> {
    return new Sitemap(await this.parseUrlsFromSitemaps(options));
  }

  /**
   * Every URL of those sitemaps, read by `repkit/sitemaps` through the crawler's client (its
   * address guard, proxy and identity; each sitemap fetched only where its robots.txt allows,
   * within the reader's bounds). A sitemap that cannot be read is skipped, as Crawlee skips it.
   */
  async parseUrlsFromSitemaps(options?: SitemapOptions): Promise<string[]> {
    const urls: string[] = [];
    for (const sitemap of this.getSitemaps(options)) {
      for await (const entry of readSitemaps(sitemap, {
        client: this.#client,
        namedBy: this.#state.location.origin,
        continueOnError: true,
      })) {
        urls.push(entry.url);
      }
    }
    return urls;
  }

  /** Crawlee's own object over repkit's sitemap list, for Crawlee's filtering and loading. */
  #crawleeView(): RobotsTxtFile {
    const sitemaps = this.#state.robots?.sitemaps ?? [];
    const text = sitemaps.map((url) => `Sitemap: ${url}\n`).join('');
    return RobotsTxtFile.from(this.url, text, this.#proxyUrl);
  }
}
