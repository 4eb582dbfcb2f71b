import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { CacheStore } from '../../src/cache/index.ts';
import { RepkitError } from '../../src/core/index.ts';
import { InvalidOptionError, InvalidUrlError, RobotsClient } from '../../src/fetch/index.ts';
import { clientSeam } from '../../src/fetch/internal.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';

const servers: TestServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

describe('RobotsClient options and errors', () => {
  test('the crawler name comes from the User-Agent product token, or the agent option', async () => {
    const a = new RobotsClient({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
    const b = new RobotsClient({
      userAgent: 'Mozilla/5.0 (compatible; X)',
      agent: ['Googlebot', 'Googlebot-Image'],
    });
    assert.deepEqual([a.agents, b.agents], [['ExampleBot'], ['Googlebot', 'Googlebot-Image']]);
    await Promise.all([a.close(), b.close()]);
  });

  test('options it cannot work with are typed errors naming the option', () => {
    for (const [options, option] of [
      [{ userAgent: '' }, 'userAgent'],
      [{ userAgent: '1.0/(x)' }, 'agent'],
      [{ userAgent: 'Bot', timeoutMs: -1 }, 'timeoutMs'],
      [{ userAgent: 'Bot', maxBytes: 0 }, 'maxBytes'],
    ] as const) {
      assert.throws(
        () => new RobotsClient(options),
        (e: unknown) =>
          e instanceof InvalidOptionError && e instanceof RepkitError && e.option === option,
      );
    }
  });

  test('check() rejects a URL that has no robots.txt with InvalidUrlError', async () => {
    const client = new RobotsClient({ userAgent: 'Bot' });
    await assert.rejects(client.check('mailto:x@example.com'), InvalidUrlError);
    await assert.rejects(client.check('/relative/path'), InvalidUrlError);
    await assert.rejects(
      client.check('ftp://example.com/pub/file'),
      /fetching robots\.txt over ftp is not supported/,
    );
    await client.close();
  });

  test('a failing store does not stop checks; the failure is reported', async () => {
    const server = await httpServer(
      robotsRoute((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /x\n')),
    );
    servers.push(server);
    const broken: CacheStore = {
      get: () => Promise.reject(new Error('store is down')),
      set: () => Promise.reject(new Error('store is down')),
      delete: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const problems: string[] = [];
    const client = new RobotsClient({
      userAgent: 'Bot',
      store: broken,
      onStoreError: (error, operation) =>
        problems.push(`${operation}: ${(error as Error).message}`),
    });
    const verdict = await client.check(`${server.origin}/x`);
    assert.deepEqual([verdict.allowed, verdict.line], [false, 2]);
    assert.deepEqual(problems, ['get: store is down', 'set: store is down']);
    await client.close();
  });
});

describe('what a check builds', () => {
  test('the deciding rule always, the explanation only when asked for', async () => {
    const site = await httpServer(
      robotsRoute((_req, res) =>
        res.writeHead(200).end('User-agent: *\nDisallow: /a/\nAllow: /a/open\n'),
      ),
    );
    servers.push(site);
    const client = new RobotsClient({ userAgent: 'Bot' });
    try {
      const plain = await client.check(`${site.origin}/a/x`);
      assert.equal(plain.explanation, undefined);
      assert.deepEqual(
        [plain.allowed, plain.line, plain.reason, plain.rule?.value],
        [false, 2, 'disallowed-by-rule', '/a/'],
      );
      const explained = await client.check(`${site.origin}/a/open`, { explain: true });
      assert.deepEqual(
        [explained.allowed, explained.line, explained.rule?.value],
        [true, 3, '/a/open'],
      );
      assert.deepEqual(
        explained.explanation?.matches.map((m) => m.value),
        ['/a/', '/a/open'],
      );
    } finally {
      await client.close();
    }
  });
});

describe('cachedState: answers from memory without waiting', () => {
  test('nothing before the first fetch; the fresh state after; nothing once it expires', async () => {
    const server = await httpServer(
      robotsRoute(
        (_req, res) => void res.writeHead(200).end('User-agent: *\nDisallow: /private/\n'),
      ),
    );
    servers.push(server);
    let now = Date.now();
    const client = new RobotsClient({ userAgent: 'Bot', now: () => now });
    const url = `${server.origin}/private/x`;
    assert.equal(clientSeam(client).cachedState(url), undefined);
    const fetched = await client.robotsFor(url);
    const cached = clientSeam(client).cachedState(url);
    assert.ok(cached?.robots);
    assert.equal(cached.source, 'cache');
    assert.equal(cached.entry, fetched.entry);
    assert.equal(clientSeam(client).verdict(url, cached).allowed, false);
    now = fetched.entry.expiresAt;
    assert.equal(clientSeam(client).cachedState(url), undefined);
    assert.throws(() => clientSeam(client).cachedState('mailto:x@example.com'), InvalidUrlError);
    await client.close();
  });
});

test('check() takes a per-call AbortSignal: the call stops, the shared fetch goes on and is cached', async (t) => {
  let answer: (() => void) | undefined;
  let asked = 0;
  const site = await httpServer((req, res) => {
    if (req.url !== '/robots.txt') return void res.writeHead(404).end();
    asked++;
    answer = () => res.writeHead(200).end('User-agent: *\nDisallow: /no\n');
  });
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
  t.after(async () => {
    await client.close();
    await site.close();
  });
  const controller = new AbortController();
  const stopped = client.check(`${site.origin}/no`, { signal: controller.signal });
  const other = client.check(`${site.origin}/no`);
  while (answer === undefined) await new Promise((done) => setTimeout(done, 10));
  controller.abort(new Error('the caller gave up'));
  await assert.rejects(stopped, /the caller gave up/);
  answer();
  assert.equal((await other).allowed, false);
  const later = await client.check(`${site.origin}/no`, { signal: AbortSignal.timeout(60_000) });
  assert.deepEqual([later.allowed, later.source, asked], [false, 'cache', 1]);
  await assert.rejects(
    client.check(`${site.origin}/no`, { signal: AbortSignal.abort(new Error('already')) }),
    /already/,
  );
});
