import { RobotsTxtFile, type Sitemap } from 'crawlee';
import type { RobotsClient, RobotsState } from '../fetch/index.ts';
import { clientSeam } from '../fetch/internal.ts';
import { keeps } from './admission.ts';

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

  /** Crawlee's `Sitemap` of every sitemap `getSitemaps` gives (fetched through Crawlee). */
  parseSitemaps(options?: SitemapOptions): Promise<Sitemap> {
    return this.#crawleeView().parseSitemaps(options);
  }

  /** Every URL of those sitemaps. */
  parseUrlsFromSitemaps(options?: SitemapOptions): Promise<string[]> {
    return this.#crawleeView().parseUrlsFromSitemaps(options);
  }

  /** Crawlee's own object over repkit's sitemap list, for Crawlee's filtering and loading. */
  #crawleeView(): RobotsTxtFile {
    const sitemaps = this.#state.robots?.sitemaps ?? [];
    const text = sitemaps.map((url) => `Sitemap: ${url}\n`).join('');
    return RobotsTxtFile.from(this.url, text, this.#proxyUrl);
  }
}
