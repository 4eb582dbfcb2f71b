/**
 * The sitemap readers the bench compares, each as "read every URL of this sitemap, return how
 * many": repkit's `readSitemaps` (through a `RobotsClient`, each entry given its verdict, as a
 * crawler uses it), sitemapper, and Crawlee's `Sitemap.load`. A reader that fails answers -1.
 */
import { Sitemap } from 'crawlee';
import Sitemapper from 'sitemapper';
import { RobotsClient } from '../src/fetch/index.ts';
import { readSitemaps } from '../src/sitemaps/index.ts';

export const SITEMAP_READERS: Record<string, (url: string) => Promise<number>> = {
  repkit: async (url) => {
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
  },
  sitemapper: async (url) => {
    const result = await new Sitemapper({ url, timeout: 300_000, concurrency: 1 }).fetch();
    return result.sites.length;
  },
  crawlee: async (url) => (await Sitemap.load(url)).urls.length,
};
