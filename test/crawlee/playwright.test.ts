/**
 * withRepkitRobots on a browser crawler: PlaywrightCrawler driving Debian's Chromium (through
 * playwright-core), against a local site. The browser's responses reach the back-off hook.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { Configuration, PlaywrightCrawler, log } from 'crawlee';
import { chromium } from 'playwright-core';
import { withRepkitRobots } from '../../src/crawlee/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';
import { TEST_KEY, verifyRequest } from '../helpers/web-bot-auth.ts';

log.setLevel(log.LEVELS.OFF);
const servers: TestServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

test('PlaywrightCrawler: disallowed never loaded, allowed loaded, a 429 pauses the host', async () => {
  let busy = 0;
  const site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res.writeHead(200).end('User-agent: ExampleBot\nDisallow: /private/\n');
    }
    if (req.url === '/busy' && busy++ === 0) {
      return void res.writeHead(429, { 'retry-after': '2' }).end('slow down');
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      req.url === '/'
        ? '<title>Home</title><a href="/private/a">p</a><a href="/busy">b</a>'
        : `<title>${req.url}</title>`,
    );
  });
  servers.push(site);
  const Crawler = withRepkitRobots(PlaywrightCrawler, { userAgent: 'ExampleBot/1.0' });
  const loaded: { path: string; at: number }[] = [];
  let pausedAt = 0;
  const crawler = new Crawler(
    {
      respectRobotsTxtFile: true,
      maxConcurrency: 1,
      maxRequestRetries: 2,
      launchContext: {
        launcher: chromium,
        launchOptions: { executablePath: '/usr/bin/chromium', headless: true },
      },
      postNavigationHooks: [
        async ({ response }) => {
          if (response?.status() === 429) pausedAt = Date.now();
        },
      ],
      requestHandler: async ({ request, enqueueLinks }) => {
        loaded.push({ path: new URL(request.url).pathname, at: Date.now() });
        await enqueueLinks({ strategy: 'same-origin' });
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  await crawler.run([`${site.origin}/`]);
  assert.deepEqual(loaded.map((l) => l.path).sort(), ['/', '/busy']);
  assert.ok(site.requests.every((r) => !r.path.startsWith('/private/')));
  // One identity: the browser's navigations carry the crawler's User-Agent.
  const pages = site.requests.filter((r) => r.path === '/' || r.path === '/busy');
  assert.ok(pages.length >= 2);
  for (const page of pages) assert.equal(page.headers['user-agent'], 'ExampleBot/1.0', page.path);
  assert.ok(pausedAt > 0, 'the 429 was seen');
  const busyAt = loaded.find((l) => l.path === '/busy')!.at;
  assert.ok(busyAt - pausedAt >= 1_800, `retried ${busyAt - pausedAt} ms after the 429`);
});

test('PlaywrightCrawler: a navigation redirecting into a disallowed path is not followed', async () => {
  const site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res.writeHead(200).end('User-agent: *\nDisallow: /private/\n');
    }
    if (req.url === '/in') return void res.writeHead(302, { location: '/private/x' }).end();
    if (req.url === '/dots') return void res.writeHead(302, { location: '/a/../private/y' }).end();
    if (req.url === '/fine') return void res.writeHead(301, { location: '/open' }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.url}</title>`);
  });
  servers.push(site);
  const Crawler = withRepkitRobots(PlaywrightCrawler, { userAgent: 'ExampleBot/1.0' });
  const loaded: string[] = [];
  const failed: string[] = [];
  const crawler = new Crawler(
    {
      respectRobotsTxtFile: true,
      maxRequestRetries: 1,
      launchContext: {
        launcher: chromium,
        launchOptions: { executablePath: '/usr/bin/chromium', headless: true },
      },
      requestHandler: async ({ page }) => void loaded.push(new URL(page.url()).pathname),
      failedRequestHandler: async ({ request }) => void failed.push(new URL(request.url).pathname),
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  await crawler.run(['/in', '/dots', '/fine'].map((p) => `${site.origin}${p}`));
  assert.deepEqual(loaded, ['/open']);
  assert.deepEqual(failed.sort(), ['/dots', '/in']);
  const paths = site.requests.map((r) => r.path);
  assert.ok(!paths.some((p) => p.startsWith('/private/')), paths.join());
  assert.equal(paths.filter((p) => p === '/in').length, 1, 'not retried');
});

test("PlaywrightCrawler: the browser's navigations carry the client's Web Bot Auth signature", async () => {
  const site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>page</title>');
  });
  servers.push(site);
  const client = new RobotsClient({
    userAgent: 'ExampleBot/1.0',
    allowAddress: () => true,
    webBotAuth: { key: TEST_KEY, signatureAgent: 'https://bot.example' },
  });
  const Crawler = withRepkitRobots(PlaywrightCrawler, { userAgent: 'ExampleBot/1.0', client });
  const crawler = new Crawler(
    {
      respectRobotsTxtFile: true,
      launchContext: {
        launcher: chromium,
        launchOptions: { executablePath: '/usr/bin/chromium', headless: true },
      },
      requestHandler: async () => {},
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  try {
    await crawler.run([`${site.origin}/page`]);
  } finally {
    await client.close();
  }
  const page = site.requests.find((r) => r.path === '/page');
  assert.ok(page, 'the page was loaded');
  await verifyRequest(page);
  assert.equal(page.headers['signature-agent'], 'sig1="https://bot.example"');
});
