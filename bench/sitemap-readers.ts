/**
 * The sitemap readers the bench compares. Each loads its own packages, then answers a function
 * that reads every URL of a sitemap and returns how many: repkit's `readSitemaps` (through a
 * `RobotsClient`, each entry given its verdict, as a crawler uses it), sitemapper, and
 * Crawlee's `Sitemap.load`. A process measuring one reader's memory holds no other's.
 */
type Read = (url: string) => Promise<number>;

export const SITEMAP_READERS: Record<string, () => Promise<Read>> = {
  repkit: async () => {
    const { RobotsClient } = await import('../src/fetch/index.ts');
    const { readSitemaps } = await import('../src/sitemaps/index.ts');
    // The fetch layer loads its HTTP client (undici) on the first request: loaded here, so
    // that the base RSS holds every package the reader uses, as the peers' do.
    await import('undici');
    return async (url) => {
      const client = new RobotsClient({ userAgent: 'BenchBot/1.0', timeoutMs: 120_000 });
      let entries = 0;
      try {
        for await (const _ of readSitemaps(url, { client, maxDepth: 20 })) entries++;
      } catch {
        // A bound reached ends the read: what was read counts.
      } finally {
        await client.close();
      }
      return entries;
    };
  },
  sitemapper: async () => {
    const { default: Sitemapper } = await import('sitemapper');
    return async (url) =>
      (await new Sitemapper({ url, timeout: 300_000, concurrency: 1 }).fetch()).sites.length;
  },
  crawlee: async () => {
    const { Sitemap } = await import('crawlee');
    return async (url) => (await Sitemap.load(url)).urls.length;
  },
};
