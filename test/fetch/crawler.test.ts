/**
 * What a crawler needs around the verdict: robots.txt through its proxy, ordered fallbacks
 * for crawler families, and per-host politeness (Crawl-delay, Retry-After) on the store.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ProxyAgent } from 'undici';
import { MemoryStore } from '../../src/cache/index.ts';
import {
  InvalidOptionError,
  RobotsClient,
  admitRequest,
  isPublicAddress,
} from '../../src/fetch/index.ts';
import { httpServer, proxyServer, type TestProxy, type TestServer } from '../helpers/servers.ts';

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

async function site(body: string, host = '127.0.0.1'): Promise<TestServer> {
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
    else res.writeHead(404).end();
  }, host);
  closing.push(server);
  return server;
}

async function proxy(): Promise<TestProxy> {
  const p = await proxyServer();
  closing.push(p);
  return p;
}

describe("robots.txt through the crawler's proxy", () => {
  test('a dispatcher (ProxyAgent) carries the fetch; the caller keeps it open', async () => {
    const origin = await site('User-agent: *\nDisallow: /private/\n');
    const through = await proxy();
    const dispatcher = new ProxyAgent(through.url);
    closing.push(dispatcher);
    const client = new RobotsClient({ userAgent: 'ExampleBot/1.0', dispatcher });
    const verdict = await client.check(`${origin.origin}/private/x`);
    assert.equal(verdict.allowed, false);
    assert.equal(verdict.line, 2);
    assert.deepEqual(through.targets, [new URL(origin.origin).host]);
    await client.close();
    // Still usable by its owner after the client closed.
    const again = new RobotsClient({ userAgent: 'ExampleBot/1.0', dispatcher });
    assert.equal((await again.check(`${origin.origin}/public`)).allowed, true);
    await again.close();
  });

  test("proxy: 'env' honours HTTP_PROXY and NO_PROXY", async () => {
    const proxied = await site('User-agent: *\nDisallow: /a/\n');
    const direct = await site('User-agent: *\nDisallow: /b/\n', '127.0.0.2');
    const through = await proxy();
    const saved = { ...process.env };
    process.env.HTTP_PROXY = through.url;
    process.env.NO_PROXY = '127.0.0.2';
    let client: RobotsClient;
    try {
      client = new RobotsClient({ userAgent: 'ExampleBot/1.0', proxy: 'env' });
    } finally {
      for (const key of ['HTTP_PROXY', 'NO_PROXY']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
    assert.equal((await client.check(`${proxied.origin}/a/x`)).allowed, false);
    assert.equal((await client.check(`${direct.origin}/b/x`)).allowed, false);
    assert.deepEqual(through.targets, [new URL(proxied.origin).host]);
    assert.equal(direct.requests.length, 1, 'NO_PROXY host fetched directly');
    await client.close();
  });

  test('a dispatcher and the address guard are refused together, with the option named', () => {
    // The guard cannot see a dispatcher's connections; `proxy: 'env'` keeps it (see
    // test/fetch/request-target.test.ts).
    assert.throws(
      () =>
        new RobotsClient({
          userAgent: 'ExampleBot/1.0',
          dispatcher: new ProxyAgent('http://127.0.0.1:9'),
          allowAddress: isPublicAddress,
        }),
      (error: unknown) => error instanceof InvalidOptionError && /allowAddress/.test(String(error)),
    );
    assert.throws(
      () => new RobotsClient({ userAgent: 'ExampleBot/1.0', proxy: 'yes' as 'env' }),
      InvalidOptionError,
    );
  });
});

describe('ordered fallbacks for crawler families', () => {
  const FILE = [
    'User-agent: Googlebot',
    'Disallow: /web-only/',
    '',
    'User-agent: Googlebot-News',
    'Disallow: /news-only/',
    '',
    'User-agent: *',
    'Disallow: /',
  ].join('\n');

  test('the first name with a group of its own decides; then the next; then *', async () => {
    const origin = await site(FILE);
    const client = new RobotsClient({
      userAgent: 'ExampleBot/1.0',
      agent: ['Googlebot-Image', 'Googlebot'],
    });
    const image = await client.check(`${origin.origin}/web-only/pic.png`);
    // Googlebot-Image has no group: Googlebot's applies (not `*`, not both merged).
    assert.equal(image.allowed, false);
    assert.equal(image.line, 2);
    assert.deepEqual(image.agent, ['Googlebot']);
    assert.equal((await client.check(`${origin.origin}/news-only/x`)).allowed, true);
    const news = await client.check(`${origin.origin}/news-only/x`, {
      agent: ['Googlebot-News', 'Googlebot'],
    });
    assert.equal(news.allowed, false);
    assert.deepEqual(news.agent, ['Googlebot-News']);
    // Neither name has a group: `*`.
    const other = await client.check(`${origin.origin}/anything`, { agent: ['AaBot', 'BbBot'] });
    assert.equal(other.allowed, false);
    assert.equal(other.line, 8);
    await client.close();
  });

  test("agentMode: 'merged' keeps several names acting as one crawler", async () => {
    const origin = await site(FILE);
    const client = new RobotsClient({
      userAgent: 'ExampleBot/1.0',
      agent: ['Googlebot-News', 'Googlebot'],
      agentMode: 'merged',
    });
    // Both groups apply at once: each one's rules block.
    assert.equal((await client.check(`${origin.origin}/web-only/x`)).allowed, false);
    assert.equal((await client.check(`${origin.origin}/news-only/x`)).allowed, false);
    assert.deepEqual((await client.check(`${origin.origin}/x`)).agent, [
      'Googlebot-News',
      'Googlebot',
    ]);
    await client.close();
  });
});

describe('politeness: turns per host on the store', () => {
  test('Crawl-delay spaces turns for every client on one store; back-off holds them all', async () => {
    const origin = await site('User-agent: ExampleBot\nCrawl-delay: 2\nDisallow: /x/\n');
    let now = 1_000_000;
    const store = new MemoryStore({ now: () => now });
    const a = new RobotsClient({ userAgent: 'ExampleBot/1.0', store, now: () => now });
    const b = new RobotsClient({ userAgent: 'ExampleBot/2.0', store, now: () => now });
    assert.deepEqual(await a.turn(`${origin.origin}/one`), { kind: 'go', crawlDelayMs: 2_000 });
    assert.deepEqual(await b.turn(`${origin.origin}/two`), {
      kind: 'wait',
      waitMs: 2_000,
      crawlDelayMs: 2_000,
    });
    now += 2_000;
    assert.equal((await b.turn(`${origin.origin}/two`)).kind, 'go');
    // A 429 with Retry-After: 120 seen by one client holds the other off too.
    now += 2_000;
    assert.equal(await a.backOff(`${origin.origin}/one`, '120'), 120_000);
    const held = await b.turn(`${origin.origin}/three`);
    assert.equal(held.kind, 'wait');
    assert.equal(held.kind === 'wait' && held.waitMs, 120_000);
    // An HTTP date works, and the pause is bounded (a day).
    assert.equal(await a.backOff(`${origin.origin}/`, 'Fri, 01 Jan 2100 00:00:00 GMT'), 86_400_000);
    await a.close();
    await b.close();
  });

  test('a Crawl-delay is honoured up to a day by default; beyond the bound the host is deferred until the file is read again, never crawled faster', async () => {
    const hour = await site('User-agent: *\nCrawl-delay: 3600\n');
    const week = await site('User-agent: *\nCrawl-delay: 604800\n');
    const plain = await site('User-agent: *\nDisallow:\n');
    let now = 1_000_000;
    const client = new RobotsClient({ userAgent: 'ExampleBot/1.0', now: () => now });
    assert.deepEqual(await client.turn(`${hour.origin}/`), { kind: 'go', crawlDelayMs: 3_600_000 });
    const held = await client.turn(`${hour.origin}/`);
    assert.equal(held.kind === 'wait' && held.waitMs, 3_600_000);
    // A week: over the day's bound. No turn, and the answer says when the file is read again.
    const over = await client.turn(`${week.origin}/`);
    assert.equal(over.kind, 'over-limit');
    assert.equal(over.kind === 'over-limit' && over.askedMs, 604_800_000);
    assert.equal(over.kind === 'over-limit' && over.waitMs, 86_400_000); // the file's lifetime
    const admission = await admitRequest(client, `${week.origin}/page`);
    assert.deepEqual(admission, {
      kind: 'defer',
      ms: 86_400_000,
      why: 'crawl-delay-over-limit',
      spacingMs: 604_800_000,
    });
    now += 1_000;
    assert.equal((await client.turn(`${plain.origin}/`)).kind, 'go');
    assert.equal((await client.turn(`${plain.origin}/`)).kind, 'go');
    await client.close();
  });

  test('shortenCrawlDelay (opt-in): a Crawl-delay above the bound gets the bound, each such turn reported', async () => {
    const slow = await site('User-agent: *\nCrawl-delay: 86400\n');
    const shortened: unknown[] = [];
    const client = new RobotsClient({
      userAgent: 'ExampleBot/1.0',
      politeness: { maxCrawlDelayMs: 5_000, shortenCrawlDelay: true },
      onShortenedCrawlDelay: (report) => shortened.push(report),
    });
    assert.deepEqual(await client.turn(`${slow.origin}/`), {
      kind: 'go',
      crawlDelayMs: 5_000,
      askedMs: 86_400_000,
    });
    const next = await client.turn(`${slow.origin}/`);
    assert.equal(next.kind, 'wait');
    assert.equal(next.kind === 'wait' && next.askedMs, 86_400_000);
    assert.deepEqual(shortened, [
      { origin: slow.origin, askedMs: 86_400_000, usedMs: 5_000 },
      { origin: slow.origin, askedMs: 86_400_000, usedMs: 5_000 },
    ]);
    await client.close();
  });
});
