/**
 * The promise every guard makes: a request robots.txt disallows is never sent. Held here for
 * every client repkit guards or offers, over generated URL spellings (an empty query, a
 * fragment after it, `//` at the start of the path, dot segments, `;` params, spaces and
 * quotes, `%` escapes valid and not, non-ASCII, tabs): a loopback site records each request
 * line it receives, and none of them is disallowed by its robots.txt in Google's reading of
 * the received path. A second site, which allows everything, is what a `//host` path names.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { CheerioCrawler, Configuration, log } from 'crawlee';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import * as undici from 'undici';
import { parse } from '../../src/core/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { withRepkitRobots } from '../../src/crawlee/index.ts';
import { guardPage, robotsFetch, robotsInterceptor } from '../../src/guards/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

log.setLevel(log.LEVELS.OFF);

/** Rules aimed at each spelling: a client that judges one form and sends another trips one. */
const ROBOTS = [
  'User-agent: *',
  'Disallow: /bugs?',
  'Disallow: /shop$',
  'Disallow: /*?$',
  'Disallow: //',
  'Disallow: /secret',
  'Disallow: /*;',
  'Disallow: /*%22',
  'Disallow: /*%27',
  'Disallow: /*%20',
  'Disallow: /*%C3%BC',
  'Disallow: /*%zz',
  'Disallow: /*%41',
  'Disallow: /*.',
  'Disallow: /*tab',
  '',
].join('\n');
const google = parse(ROBOTS);

const closing: { close(): Promise<void> }[] = [];
let site: TestServer;
let other: TestServer;
before(async () => {
  site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end(ROBOTS);
    // The page names its icon: Chromium's own /favicon.ico request is the browser's, not the
    // page's, and can escape Playwright's routing (see guardPage), which this test is not about.
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<title>page</title><link rel="icon" href="data:,">');
  });
  other = await httpServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url === '/robots.txt' ? '' : 'x');
  });
  closing.push(site, other);
});
after(async () => {
  for (const thing of closing.splice(0).reverse()) await thing.close();
});

const segment = fc.constantFrom(
  'a', 'ok', 'bugs', 'shop', 'secret', '.', '..', '%2e%2e', '%2E', 'x;p=1', ';q', 'a b',
  '"q"', "'s'", '%41', '%zz', '%', 'ü', 'caf%C3%A9', 't\tab', '',
); // prettier-ignore
const query = fc.constantFrom('', '', '?', '?q=1', '?a b', '?"x"', "?'y'", '?ü', '?%zz', '??');
const fragment = fc.constantFrom('', '', '#f', '#', '#a?b');
const spelling = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), query, fragment)
  .map(([segments, q, f]) => '/' + segments.join('/') + q + f);

/** The spellings every client is tried with: the named ones, then generated ones (fixed seed). */
function spellings(): string[] {
  const host = new URL(other.origin).host;
  const named = [
    '/ok',
    '/ok?q=1',
    '/bugs?',
    '/bugs?#frag',
    '/shop?',
    '/shop?#x',
    `//${host}/x`,
    `//${host}/ok`,
    '/a/../secret/x',
    '/a/%2e%2e/secret',
    '/a;p=1/ok',
    '/a b"c?q=a b"\'<>',
    '/%zz/%41',
    '/über?ü=ü',
    '/t\tab',
    '/a\\secret',
  ];
  return [...named, ...fc.sample(spelling, { numRuns: 40, seed: 41 })];
}

/** What the site received that its robots.txt disallows, read as Google reads the path. */
function disallowedReceived(): string[] {
  return site.requests
    .map((r) => r.path)
    .filter((path) => path !== '/robots.txt')
    .filter((path) => !google.isAllowed(site.origin + path, 'ExampleBot'));
}

function robotsClient(): RobotsClient {
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(client);
  return client;
}

function interceptorAgent(client: RobotsClient): undici.Dispatcher {
  const agent = new undici.Agent().compose(robotsInterceptor(client, { politeness: false }));
  closing.push(agent);
  return agent;
}

/** Each client, as a function that sends a batch of URLs through its guard. */
const CLIENTS: Record<string, (urls: string[]) => Promise<void>> = {
  'robotsFetch (global fetch)': async (urls) => {
    const send = robotsFetch(robotsClient(), { politeness: false });
    for (const url of urls) await settle(send(url).then((r) => r.text()));
  },
  'robotsFetch with undici.fetch': async (urls) => {
    const send = robotsFetch(robotsClient(), {
      politeness: false,
      fetch: undici.fetch as unknown as typeof fetch,
    });
    for (const url of urls) await settle(send(url).then((r) => r.text()));
  },
  'undici.fetch through robotsInterceptor': async (urls) => {
    const dispatcher = interceptorAgent(robotsClient());
    for (const url of urls) await settle(undici.fetch(url, { dispatcher }).then((r) => r.text()));
  },
  'undici.request through robotsInterceptor': async (urls) => {
    const dispatcher = interceptorAgent(robotsClient());
    for (const url of urls) {
      await settle(undici.request(url, { dispatcher }).then((r) => r.body.text()));
    }
  },
  'undici.stream through robotsInterceptor': async (urls) => {
    const dispatcher = interceptorAgent(robotsClient());
    const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
    for (const url of urls) await settle(undici.stream(url, { dispatcher, method: 'GET' }, sink));
  },
  'global fetch through robotsInterceptor': async (urls) => {
    const dispatcher = interceptorAgent(robotsClient());
    for (const url of urls) {
      await settle(fetch(url, { dispatcher } as RequestInit).then((r) => r.text()));
    }
  },
  'got, through the Crawlee adapter': async (urls) => {
    const Crawler = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0' });
    const crawler = new Crawler(
      { respectRobotsTxtFile: true, maxRequestRetries: 0, requestHandler: async () => {} },
      new Configuration({ persistStorage: false, purgeOnStart: true }),
    );
    const requests = urls.flatMap((url) => {
      try {
        return [{ url, uniqueKey: url }];
      } catch {
        return [];
      }
    });
    await crawler.run(requests);
  },
};

async function settle(sent: Promise<unknown>): Promise<void> {
  await sent.then(
    () => undefined,
    () => undefined,
  );
}

describe('no client sends a request its robots.txt disallows', () => {
  for (const [name, send] of Object.entries(CLIENTS)) {
    test(name, { timeout: 180_000 }, async () => {
      site.requests.length = 0;
      await send(spellings().map((s) => site.origin + s));
      assert.deepEqual(disallowedReceived(), [], `${name} sent what robots.txt disallows`);
      const received = site.requests.map((r) => r.path);
      assert.ok(received.includes('/ok'), `${name} sent the allowed /ok: ${received.join(' ')}`);
    });
  }

  describe('Chromium through guardPage', () => {
    let browser: Browser;
    before(async () => {
      browser = await launchChromium();
    });
    after(() => browser?.close());

    test('navigations', { timeout: 180_000 }, async () => {
      site.requests.length = 0;
      const page = await browser.newPage();
      try {
        const guard = await guardPage(page, robotsClient(), { politeness: false });
        for (const s of spellings()) await settle(guard.goto(site.origin + s));
      } finally {
        await page.close();
      }
      assert.deepEqual(disallowedReceived(), [], 'Chromium sent what robots.txt disallows');
      assert.ok(site.requests.some((r) => r.path === '/ok'));
    });
  });
});
