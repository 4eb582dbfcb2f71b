/**
 * repkit/crawlee with real Crawlee crawlers (the `crawlee` package from npm) against local
 * origins: what is requested, what is skipped, what waits and comes back.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { BasicCrawler, CheerioCrawler, Configuration, ProxyConfiguration, log } from 'crawlee';
import { withRepkitRobots } from '../../src/crawlee/index.ts';
import { httpServer, proxyServer, type Handler, type TestServer } from '../helpers/servers.ts';

log.setLevel(log.LEVELS.OFF);

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

/** A site: robots.txt from `robots` (called per request), pages linking to `links`. */
async function site(
  robots: (n: number) => { status: number; body?: string; headers?: Record<string, string> },
  pages: Record<string, string[]> = {},
  extra?: Handler,
): Promise<TestServer & { robotsAsked: () => number }> {
  let asked = 0;
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      const answer = robots(asked++);
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      return void res.end(answer.body ?? '');
    }
    if (extra) return extra(req, res);
    const links = pages[req.url ?? ''] ?? [];
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><body>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}</body></html>`);
  });
  closing.push(server);
  return Object.assign(server, { robotsAsked: () => asked });
}

/** Paths requested other than robots.txt, in order. */
function pagesOf(server: TestServer): string[] {
  return server.requests.map((r) => r.path).filter((p) => p !== '/robots.txt');
}

function config(): Configuration {
  return new Configuration({ persistStorage: false, purgeOnStart: true });
}

/** A CheerioCrawler with repkit, noting the paths crawled and skipped; `follow`: enqueue links. */
function cheerio(follow: boolean) {
  const Crawler = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0' });
  const handled: string[] = [];
  const skipped: string[] = [];
  const crawler = new Crawler(
    {
      respectRobotsTxtFile: true,
      onSkippedRequest: ({ url }) => void skipped.push(new URL(url).pathname),
      requestHandler: async ({ request, enqueueLinks }) => {
        handled.push(new URL(request.url).pathname);
        if (follow) await enqueueLinks({ strategy: 'same-origin' });
      },
    },
    config(),
  );
  return { crawler, handled, skipped };
}

/** A CheerioCrawler with repkit whose proxy configuration is `proxyUrl`. */
function proxiedCrawler(proxyUrl: string) {
  const Crawler = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0' });
  return new Crawler(
    {
      respectRobotsTxtFile: true,
      proxyConfiguration: new ProxyConfiguration({ proxyUrls: [proxyUrl] }),
      requestHandler: async () => {},
    },
    config(),
  );
}

const FILE = 'User-agent: ExampleBot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n';

describe('withRepkitRobots(CheerioCrawler)', () => {
  test('disallowed URLs are never requested, allowed ones are crawled, skips are reported', async () => {
    const origin = await site(() => ({ status: 200, body: FILE }), {
      '/': ['/public/a', '/private/b', '/public/c'],
      '/public/a': ['/private/d'],
    });
    const { crawler, handled, skipped } = cheerio(true);
    await crawler.run([`${origin.origin}/`, `${origin.origin}/private/x`]);
    assert.deepEqual(handled.sort(), ['/', '/public/a', '/public/c']);
    assert.ok(
      pagesOf(origin).every((p) => !p.startsWith('/private/')),
      pagesOf(origin).join(),
    );
    assert.deepEqual(skipped.sort(), ['/private/b', '/private/d', '/private/x']);
    assert.equal(origin.robotsAsked(), 1, 'one robots.txt fetch for the whole crawl');
    const ua = origin.requests.find((r) => r.path === '/robots.txt')!.headers['user-agent'];
    assert.equal(ua, 'ExampleBot/1.0');
  });

  test('a robots.txt answering 503 defers the requests (not dropped), crawled once it answers 200', async () => {
    const origin = await site((n) =>
      n === 0
        ? { status: 503, headers: { 'retry-after': '1' } }
        : { status: 200, body: 'User-agent: *\nDisallow: /private/\n' },
    );
    const { crawler, handled, skipped } = cheerio(false);
    const started = Date.now();
    const stats = await crawler.run([`${origin.origin}/a`, `${origin.origin}/private/b`]);
    assert.deepEqual(handled, ['/a']);
    assert.deepEqual(skipped, ['/private/b']);
    assert.deepEqual(pagesOf(origin), ['/a']);
    assert.equal(origin.robotsAsked(), 2);
    assert.ok(Date.now() - started >= 900, 'waited for the Retry-After before asking again');
    assert.equal(stats.requestsFailed, 0);
    assert.ok(stats.retryHistogram.length <= 1, 'a deferral is not a retry');
  });

  test('a robots.txt answering 404 lets everything be crawled', async () => {
    const origin = await site(() => ({ status: 404 }), { '/': ['/private/x', '/y'] });
    const Crawler = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0' });
    const handled: string[] = [];
    const crawler = new Crawler(
      {
        respectRobotsTxtFile: true,
        requestHandler: async ({ request, enqueueLinks }) => {
          handled.push(new URL(request.url).pathname);
          await enqueueLinks({ strategy: 'same-origin' });
        },
      },
      config(),
    );
    await crawler.run([`${origin.origin}/`]);
    assert.deepEqual(handled.sort(), ['/', '/private/x', '/y']);
  });

  test("Crawl-delay spaces a host's requests", async () => {
    const origin = await site(() => ({
      status: 200,
      body: 'User-agent: *\nCrawl-delay: 0.5\n',
    }));
    const Crawler = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0' });
    const at: number[] = [];
    const crawler = new Crawler(
      {
        respectRobotsTxtFile: true,
        maxConcurrency: 3,
        requestHandler: async () => void at.push(Date.now()),
      },
      config(),
    );
    await crawler.run([1, 2, 3].map((i) => `${origin.origin}/p${i}`));
    assert.equal(at.length, 3);
    at.sort((a, b) => a - b);
    for (let i = 1; i < at.length; i++) {
      assert.ok(at[i]! - at[i - 1]! >= 450, `gap ${at[i]! - at[i - 1]!} ms`);
    }
  });

  test('a page answering 429 pauses its host for the Retry-After', async () => {
    let slowAsked = 0;
    const origin = await site(
      () => ({ status: 200, body: 'User-agent: *\nDisallow:\n' }),
      {},
      (req, res) => {
        if (req.url === '/busy' && slowAsked++ === 0) {
          return void res.writeHead(429, { 'retry-after': '1' }).end();
        }
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      },
    );
    const Crawler = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0' });
    const handled: { path: string; at: number }[] = [];
    const crawler = new Crawler(
      {
        respectRobotsTxtFile: true,
        maxConcurrency: 1,
        maxRequestRetries: 2,
        requestHandler: async ({ request }) =>
          void handled.push({ path: new URL(request.url).pathname, at: Date.now() }),
      },
      config(),
    );
    const started = Date.now();
    await crawler.run([`${origin.origin}/busy`, `${origin.origin}/next`]);
    assert.deepEqual(handled.map((h) => h.path).sort(), ['/busy', '/next']);
    // Nothing went to the host in the second after the 429.
    const after429 = handled.map((h) => h.at - started);
    assert.ok(
      after429.every((t) => t >= 900),
      `requests after the 429 at ${after429.join(', ')} ms`,
    );
  });

  test("robots.txt goes through the crawler's proxy configuration", async () => {
    const origin = await site(() => ({ status: 200, body: FILE }));
    const proxy = await proxyServer();
    closing.push(proxy);
    const crawler = proxiedCrawler(proxy.url);
    await crawler.run([`${origin.origin}/ok`]);
    const host = new URL(origin.origin).host;
    assert.ok(proxy.requests.includes(`${host} GET /robots.txt`), proxy.requests.join('; '));
  });

  test("sitemaps read through getRobotsTxtFileForUrl go through the crawler's proxy too", async () => {
    let self = '';
    const origin = await site(
      () => ({ status: 200, body: `User-agent: *\nAllow: /\nSitemap: ${self}/sitemap.xml\n` }),
      {},
      (req, res) => {
        if (req.url !== '/sitemap.xml') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${self}/a</loc></url></urlset>`,
        );
      },
    );
    self = origin.origin;
    const proxy = await proxyServer();
    closing.push(proxy);
    const crawler = proxiedCrawler(proxy.url);
    const file = await (
      crawler as unknown as {
        getRobotsTxtFileForUrl(
          url: string,
        ): Promise<{ parseUrlsFromSitemaps(): Promise<string[]> }>;
      }
    ).getRobotsTxtFileForUrl(`${origin.origin}/x`);
    assert.deepEqual(await file.parseUrlsFromSitemaps(), [`${origin.origin}/a`]);
    const host = new URL(origin.origin).host;
    assert.ok(proxy.requests.includes(`${host} GET /sitemap.xml`), proxy.requests.join('; '));
  });
});

describe('withRepkitRobots(BasicCrawler)', () => {
  test('ordered agent fallbacks decide; getRobotsTxtFileForUrl gives sitemaps as Crawlee does', async () => {
    let self = '';
    const origin = await site(() => ({
      status: 200,
      body: [
        'User-agent: Googlebot',
        'Disallow: /web/',
        `Sitemap: ${self}/sitemap.xml`,
        'Sitemap: /relative.xml',
        'Sitemap: https://elsewhere.example/sitemap.xml',
        'Sitemap: ftp://example.com/s.xml',
      ].join('\n'),
    }));
    self = origin.origin;
    const Crawler = withRepkitRobots(BasicCrawler, {
      userAgent: 'ExampleImageBot/1.0',
      agent: ['Googlebot-Image', 'Googlebot'],
    });
    const handled: string[] = [];
    const crawler = new Crawler(
      {
        respectRobotsTxtFile: true,
        requestHandler: async ({ request }) => void handled.push(new URL(request.url).pathname),
      },
      config(),
    );
    await crawler.run([`${origin.origin}/web/x`, `${origin.origin}/img/y`]);
    assert.deepEqual(handled, ['/img/y']);
    const file = await (
      crawler as unknown as {
        getRobotsTxtFileForUrl(url: string): Promise<{
          isAllowed(url: string): boolean;
          getSitemaps(options?: { enqueueStrategy?: string }): string[];
        }>;
      }
    ).getRobotsTxtFileForUrl(`${origin.origin}/`);
    assert.equal(file.isAllowed(`${origin.origin}/web/z`), false);
    assert.equal(file.isAllowed(`${origin.origin}/img/z`), true);
    assert.deepEqual(file.getSitemaps(), [`${origin.origin}/sitemap.xml`]);
    assert.deepEqual(file.getSitemaps({ enqueueStrategy: 'all' }), [
      `${origin.origin}/sitemap.xml`,
      'https://elsewhere.example/sitemap.xml',
    ]);
  });
});
