/**
 * The sitemap rows: repkit's `readSitemaps` against the most used npm readers (sitemapper,
 * and Crawlee's `Sitemap` loader), in one run, on loopback: entries per second on a
 * 50,000-URL sitemap, plain and gzip'd (the readers taking turns, the median kept), and each
 * reader's peak RSS, in a process of its own, on a 1 GB gzip bomb and on indexes nested ten
 * deep; and the floors under those peaks (a bare process, and the bomb gunzipped into a loop
 * that only counts bytes, through undici and through `node:http`). `node
 * .bench/bench/sitemaps-only.js` runs them alone.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createGzip, gzipSync } from 'node:zlib';
import { FLOOR_READERS, SITEMAP_READERS } from './sitemap-readers.ts';

type Record = (metric: string, peer: string, value: number) => void;

const URLS = 50_000;
const BOMB_BYTES = 1024 * 1024 * 1024;
const LEVELS = 10;

/** gzip of a urlset holding `bytes` of comments (markup every KiB), compressed as a stream. */
async function bomb(bytes: number): Promise<Buffer> {
  const unit = Buffer.from(`<!--${'x'.repeat(1017)}-->`.repeat(1024));
  const source = Readable.from(
    (function* () {
      yield Buffer.from(
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      );
      for (let sent = 0; sent < bytes; sent += unit.length) yield unit;
      yield Buffer.from('</urlset>');
    })(),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of source.pipe(createGzip({ level: 9 }))) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The bench's site: the big sitemap plain and gzip'd, the bomb, and the nested indexes. */
async function benchSite(): Promise<{ origin: string; server: Server }> {
  const files = new Map<string, { body: Buffer; type: string }>();
  const server = createServer((req, res) => {
    const file = files.get(req.url ?? '');
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const urls = Array.from(
    { length: URLS },
    (_, i) => `<url><loc>${origin}/page/${i}</loc><lastmod>2026-11-01</lastmod></url>`,
  );
  const big = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
  );
  files.set('/big.xml', { body: big, type: 'application/xml' });
  files.set('/big.xml.gz', { body: gzipSync(big), type: 'application/gzip' });
  files.set('/bomb.xml.gz', { body: await bomb(BOMB_BYTES), type: 'application/gzip' });
  for (let i = 0; i < LEVELS; i++) {
    const body = `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/level${i + 1}.xml</loc></sitemap></sitemapindex>`;
    files.set(`/level${i}.xml`, { body: Buffer.from(body), type: 'application/xml' });
  }
  files.set(`/level${LEVELS}.xml`, {
    body: Buffer.from(`<urlset><url><loc>${origin}/deep</loc></url></urlset>`),
    type: 'application/xml',
  });
  return { origin, server };
}

/** One reader on one URL in a process of its own: entries, time, peak RSS, or what stopped it. */
function inChild(
  reader: string,
  url: string,
): Promise<{
  entries?: number;
  ms?: number;
  peakRssBytes?: number;
  baseRssBytes?: number;
  error?: string;
}> {
  const child = fileURLToPath(new URL('./sitemap-child.js', import.meta.url));
  return new Promise((done) => {
    execFile(
      process.execPath,
      [child, reader, url],
      { timeout: 300_000, maxBuffer: 1024 * 1024 },
      (error, stdout) => {
        try {
          done(JSON.parse(stdout.trim().split('\n').at(-1)!));
        } catch {
          done({
            error: error
              ? `${error.killed ? 'killed after 300 s' : error.message.split('\n')[0]}`
              : 'no answer',
          });
        }
      },
    );
  });
}

export async function benchSitemaps(record: Record): Promise<void> {
  const { origin, server } = await benchSite();
  try {
    const reads = new Map(
      await Promise.all(
        Object.entries(SITEMAP_READERS).map(async ([name, load]) => [name, await load()] as const),
      ),
    );
    for (const file of ['big.xml', 'big.xml.gz']) {
      const times = new Map<string, number[]>(Object.keys(SITEMAP_READERS).map((n) => [n, []]));
      for (let turn = 0; turn < 5; turn++) {
        const names = Object.keys(SITEMAP_READERS);
        for (const name of turn % 2 ? names.reverse() : names) {
          const start = performance.now();
          const entries = await reads.get(name)!(`${origin}/${file}`);
          if (entries !== URLS)
            throw new Error(`${name} read ${entries} of ${URLS} entries of ${file}`);
          times.get(name)!.push(performance.now() - start);
        }
      }
      for (const [name, ms] of times) {
        const median = [...ms].sort((a, b) => a - b)[ms.length >> 1]!;
        record(`sitemap ${file}: entries/s`, name, URLS / (median / 1000));
      }
    }
    for (const [file, label] of [
      ['bomb.xml.gz', '1 GB gzip bomb'],
      [`level0.xml`, `indexes ${LEVELS} deep`],
    ] as const) {
      for (const name of Object.keys(SITEMAP_READERS)) {
        const result = await inChild(name, `${origin}/${file}`);
        if (result.peakRssBytes !== undefined) {
          record(`sitemap ${label}: peak RSS MiB`, name, result.peakRssBytes / 1024 / 1024);
          const growth = result.peakRssBytes - (result.baseRssBytes ?? 0);
          record(`sitemap ${label}: RSS growth MiB`, name, growth / 1024 / 1024);
          record(`sitemap ${label}: entries`, name, result.entries ?? 0);
          record(`sitemap ${label}: ms`, name, result.ms ?? 0);
        }
        if (result.error) console.log(`sitemap ${label}, ${name}: ${result.error}`);
      }
    }
    // What Node holds on the bomb with no reader at all: the floor under every peak above.
    for (const name of Object.keys(FLOOR_READERS)) {
      const result = await inChild(name, `${origin}/bomb.xml.gz`);
      if (result.peakRssBytes !== undefined) {
        record('floor: 1 GB gzip bomb, peak RSS MiB', name, result.peakRssBytes / 1024 / 1024);
      }
      if (result.error) console.log(`floor, ${name}: ${result.error}`);
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
