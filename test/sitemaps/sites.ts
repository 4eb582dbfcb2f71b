/**
 * Loopback sites for the sitemap tests: files served by path (a `Buffer` as it is, a string
 * as UTF-8), with a content type and encoding per file, and every request recorded.
 */
import { gzipSync } from 'node:zlib';
import { httpServer, type TestServer } from '../helpers/servers.ts';
import { RobotsClient, type RobotsClientOptions } from '../../src/fetch/index.ts';
import {
  readSitemaps,
  type ReadSitemapsOptions,
  type SitemapEntry,
  type SitemapProblem,
} from '../../src/sitemaps/index.ts';

export interface Served {
  body: string | Buffer;
  type?: string;
  /** `gzip`: sent with Content-Encoding: gzip (the body compressed here). */
  encoding?: 'gzip';
  status?: number;
  location?: string;
}

export type Files = Record<string, Served | string>;

/** A site serving `files` (a string is an XML body); `{origin}` in a body is the site's origin. */
export async function site(files: Files, host = '127.0.0.1'): Promise<TestServer> {
  let origin = '';
  const server = await httpServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const found = files[path];
    if (found === undefined) return void res.writeHead(404).end('not found');
    const file = typeof found === 'string' ? { body: found } : found;
    const text =
      typeof file.body === 'string' ? file.body.replaceAll('{origin}', origin) : file.body;
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    const body = file.encoding === 'gzip' ? gzipSync(bytes) : bytes;
    res.writeHead(file.status ?? 200, {
      'content-type': file.type ?? 'application/xml',
      ...(file.encoding ? { 'content-encoding': file.encoding } : {}),
      ...(file.location ? { location: file.location.replaceAll('{origin}', origin) } : {}),
    });
    res.end(body);
  }, host);
  origin = server.origin;
  return server;
}

/** A urlset listing `paths` of `{origin}` (or full URLs), one `<url>` per line. */
export function urlset(paths: readonly string[], lastmod?: string): string {
  const urls = paths.map(
    (p) =>
      `<url><loc>${p.startsWith('http') ? p : `{origin}${p}`}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** A sitemap index listing `sitemaps` (paths of `{origin}`, or full URLs). */
export function sitemapIndex(sitemaps: readonly string[]): string {
  const entries = sitemaps.map(
    (s) => `<sitemap><loc>${s.startsWith('http') ? s : `{origin}${s}`}</loc></sitemap>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

export function testClient(options: Partial<RobotsClientOptions> = {}): RobotsClient {
  return new RobotsClient({ userAgent: 'ExampleBot/1.0', timeoutMs: 60_000, ...options });
}

export interface ReadResult {
  entries: SitemapEntry[];
  problems: SitemapProblem[];
  error?: unknown;
}

/** Every entry of a read, the problems reported, and the error that ended it, if one did. */
export async function readAll(
  source: Parameters<typeof readSitemaps>[0],
  options: ReadSitemapsOptions,
): Promise<ReadResult> {
  const entries: SitemapEntry[] = [];
  const problems: SitemapProblem[] = [];
  try {
    for await (const entry of readSitemaps(source, {
      ...options,
      onProblem: (p) => problems.push(p),
    })) {
      entries.push(entry);
    }
    return { entries, problems };
  } catch (error) {
    return { entries, problems, error };
  }
}
