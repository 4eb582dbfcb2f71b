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

/** What a reader is allowed to decode of one sitemap (repkit's bound, sitemaps.org's). */
const FLOOR_BYTES = 50 * 1024 * 1024;

/**
 * Floors, not readers: what a Node process holds doing less than any reader can. Each
 * answers the MiB it decoded. `bare node` reads nothing; the other two fetch the sitemap and
 * gunzip it into a loop that only counts bytes, up to the bound, with no XML read and no
 * repkit code: one through undici (the fetch layer's HTTP client), one through `node:http`.
 */
export const FLOOR_READERS: Record<string, () => Promise<Read>> = {
  'bare node': async () => async () => 0,
  'node:http + gunzip, counting': async () => {
    const { get } = await import('node:http');
    return (url) =>
      new Promise((done, fail) => {
        get(url, (response) => void countGunzipped(response).then(done, fail)).on('error', fail);
      });
  },
  'undici + gunzip, counting': async () => {
    const { request } = await import('undici');
    return async (url) => countGunzipped((await request(url)).body);
  },
};

/** MiB gunzipped from `body` (up to `FLOOR_BYTES`), each piece let go as it is counted. */
async function countGunzipped(body: NodeJS.ReadableStream): Promise<number> {
  const { createGunzip } = await import('node:zlib');
  const gunzip = createGunzip();
  body.pipe(gunzip);
  let bytes = 0;
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes >= FLOOR_BYTES) break;
  }
  gunzip.destroy();
  (body as { destroy?: () => void }).destroy?.();
  return Math.round(bytes / 1024 / 1024);
}
