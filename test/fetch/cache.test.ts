/**
 * Caching and refreshing with a controlled clock: lifetimes from Cache-Control, retries after
 * server errors, Google's 30-day rules, and one fetch per origin for concurrent callers.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, describe, test } from 'node:test';
import { MemoryStore, type CacheStore } from '../../src/cache/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { httpServer, robotsRoute, TestClock, type TestServer } from '../helpers/servers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RULES = 'User-agent: *\nDisallow: /private/\n';

const servers: TestServer[] = [];
const clients: RobotsClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

/** A server whose robots.txt response the test changes as it goes. */
async function scripted(initial: (res: ServerResponse) => void) {
  let respond = initial;
  const server = await httpServer(robotsRoute((_req, res) => respond(res)));
  servers.push(server);
  return {
    server,
    set: (next: (res: ServerResponse) => void) => {
      respond = next;
    },
  };
}

function setup(clock: TestClock): RobotsClient {
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0', now: clock.now });
  clients.push(client);
  return client;
}

const ok =
  (headers: Record<string, string> = {}) =>
  (res: ServerResponse) =>
    res.writeHead(200, headers).end(RULES);
const status =
  (code: number, headers: Record<string, string> = {}) =>
  (res: ServerResponse) =>
    res.writeHead(code, headers).end();

describe('lifetimes', () => {
  const cases: [label: string, headers: Record<string, string>, lifetime: number][] = [
    ['no cache headers: 24 hours', {}, DAY],
    ['max-age shorter than 24 hours', { 'cache-control': 'max-age=3600' }, HOUR],
    ['max-age longer than 24 hours', { 'cache-control': 'public, max-age=172800' }, 2 * DAY],
    [
      's-maxage wins over max-age (a shared cache)',
      { 'cache-control': 'max-age=60000, s-maxage=7200' },
      2 * HOUR,
    ],
    [
      'max-age beyond the bound is capped at 7 days',
      { 'cache-control': 'max-age=99999999' },
      7 * DAY,
    ],
    ['no-store: the minimum lifetime', { 'cache-control': 'no-store' }, 60_000],
    ['no-cache: the minimum lifetime', { 'cache-control': 'no-cache' }, 60_000],
  ];
  for (const [label, headers, lifetime] of cases) {
    test(label, async () => {
      const clock = new TestClock();
      const { server } = await scripted(ok(headers));
      const robots = setup(clock);
      const first = await robots.check(`${server.origin}/private/a`);
      assert.equal(first.expiresAt - first.fetchedAt, lifetime);
      clock.advance(lifetime - 1);
      assert.equal((await robots.check(`${server.origin}/private/b`)).source, 'cache');
      assert.equal(server.requests.length, 1);
      clock.advance(1);
      assert.equal((await robots.check(`${server.origin}/private/c`)).source, 'fetched');
      assert.equal(server.requests.length, 2);
    });
  }

  test('Expires (with Date) sets the lifetime when there is no max-age', async () => {
    const clock = new TestClock();
    const date = new Date(clock.time);
    const expires = new Date(clock.time + 3 * HOUR);
    const { server } = await scripted(
      ok({ date: date.toUTCString(), expires: expires.toUTCString() }),
    );
    const verdict = await setup(clock).check(`${server.origin}/`);
    assert.equal(verdict.expiresAt - verdict.fetchedAt, 3 * HOUR);
  });

  test('a 404 is cached like a good copy', async () => {
    const clock = new TestClock();
    const { server } = await scripted(status(404));
    const robots = setup(clock);
    await robots.check(`${server.origin}/a`);
    clock.advance(DAY - 1);
    const again = await robots.check(`${server.origin}/b`);
    assert.deepEqual([again.allowed, again.source, server.requests.length], [true, 'cache', 1]);
  });
});

describe('server errors', () => {
  test('429 with Retry-After: disallowed, and not asked again before Retry-After', async () => {
    const clock = new TestClock();
    const { server, set } = await scripted(status(429, { 'retry-after': '120' }));
    const robots = setup(clock);
    const first = await robots.check(`${server.origin}/x`);
    assert.deepEqual(
      [first.allowed, first.status, first.expiresAt - first.fetchedAt],
      [false, 429, 120_000],
    );
    clock.advance(119_000);
    assert.equal((await robots.check(`${server.origin}/x`)).source, 'cache');
    assert.equal(server.requests.length, 1);
    set(ok());
    clock.advance(1_000);
    const recovered = await robots.check(`${server.origin}/x`);
    assert.deepEqual([recovered.allowed, recovered.status, server.requests.length], [true, 200, 2]);
  });

  test('Retry-After as an HTTP date', async () => {
    const clock = new TestClock();
    const { server } = await scripted(
      status(503, { 'retry-after': new Date(clock.time + 10 * 60_000).toUTCString() }),
    );
    const verdict = await setup(clock).check(`${server.origin}/x`);
    assert.equal(verdict.expiresAt - verdict.fetchedAt, 10 * 60_000);
  });

  test('503, then recovery: disallowed while failing, the rules once it answers', async () => {
    const clock = new TestClock();
    const { server, set } = await scripted(status(503));
    const robots = setup(clock);
    assert.deepEqual(
      [
        (await robots.check(`${server.origin}/public`)).allowed,
        (await robots.check(`${server.origin}/public`)).reason,
      ],
      [false, 'robots-txt-unreachable'],
    );
    set(ok());
    clock.advance(60_000);
    const verdict = await robots.check(`${server.origin}/public`);
    assert.deepEqual(
      [verdict.allowed, verdict.reason, verdict.source],
      [true, 'no-matching-rule', 'fetched'],
    );
    assert.equal((await robots.check(`${server.origin}/private/x`)).allowed, false);
  });

  test('retries back off: 1, 2, 4, 8 minutes... up to an hour', async () => {
    const clock = new TestClock();
    const { server } = await scripted(status(500));
    const robots = setup(clock);
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const verdict = await robots.check(`${server.origin}/`);
      delays.push((verdict.expiresAt - clock.time) / 60_000);
      clock.time = verdict.expiresAt;
    }
    assert.deepEqual(delays, [1, 2, 4, 8, 16, 32, 60, 60]);
  });
});

describe("Google's 30-day rules", () => {
  test('with a good copy: the copy is used while errors last, beyond 30 days too', async () => {
    const clock = new TestClock();
    const { server, set } = await scripted(ok());
    const robots = setup(clock);
    await robots.check(`${server.origin}/`);
    set(status(503));
    for (const day of [1, 10, 29, 31, 45]) {
      clock.time = Date.UTC(2026, 0, 1) + day * DAY;
      const verdict = await robots.check(`${server.origin}/private/x`);
      assert.deepEqual(
        [verdict.allowed, verdict.source, verdict.line],
        [false, 'stale', 2],
        `day ${day}`,
      );
      assert.equal((await robots.check(`${server.origin}/public`)).allowed, true, `day ${day}`);
    }
  });

  test('without a copy: everything disallowed for 30 days, then no restrictions', async () => {
    const clock = new TestClock();
    const { server } = await scripted(status(500));
    const robots = setup(clock);
    const start = clock.time;
    // Asked every hour, as a crawler with URLs of the site waiting does: the error run (and
    // its backoff) is remembered from one retry to the next.
    for (let hour = 0; hour <= 40 * 24; hour++) {
      clock.time = start + hour * HOUR;
      const verdict = await robots.check(`${server.origin}/x`);
      const expected =
        hour < 30 * 24
          ? [false, 'robots-txt-unreachable']
          : [true, 'robots-txt-unreachable-too-long'];
      assert.deepEqual([verdict.allowed, verdict.reason], expected, `hour ${hour}`);
    }
  });

  test('a run of errors not asked about for longer than the longest retry starts over', async () => {
    // An entry without a file is kept an hour past its retry (see "what the store keeps"):
    // asked about again two days later, the run starts over, still disallowed (fail closed).
    const clock = new TestClock();
    const { server } = await scripted(status(500));
    const robots = setup(clock);
    const start = clock.time;
    for (const day of [0, 2, 4, 31, 33]) {
      clock.time = start + day * DAY;
      const verdict = await robots.check(`${server.origin}/x`);
      assert.deepEqual(
        [verdict.allowed, verdict.reason],
        [false, 'robots-txt-unreachable'],
        `day ${day}`,
      );
    }
  });
});

describe('one fetch per origin', () => {
  test('100 concurrent checks of one origin make one request', async () => {
    const server = await httpServer(
      robotsRoute((_req, res) => setTimeout(() => res.writeHead(200).end(RULES), 100)),
    );
    servers.push(server);
    const robots = setup(new TestClock());
    const verdicts = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        robots.check(`${server.origin}/${i % 2 ? 'private/' : ''}page${i}`),
      ),
    );
    assert.equal(server.requests.length, 1);
    assert.equal(verdicts.filter((v) => v.allowed).length, 50);
    assert.ok(verdicts.every((v) => v.source === 'fetched'));
  });

  test('different origins (the same host on another port) are fetched separately', async () => {
    const a = await httpServer(robotsRoute((_req, res) => ok()(res)));
    const b = await httpServer(robotsRoute((_req, res) => status(404)(res)));
    servers.push(a, b);
    const robots = setup(new TestClock());
    assert.equal((await robots.check(`${a.origin}/private/x`)).allowed, false);
    assert.equal((await robots.check(`${b.origin}/private/x`)).allowed, true);
    assert.deepEqual([a.requests.length, b.requests.length], [1, 1]);
  });
});

describe('what the store keeps', () => {
  test('a file for its lifetime and the stale window; an answer without one for an hour more', async () => {
    const kept = new Map<string, number>();
    const store = new MemoryStore();
    const recording: CacheStore = {
      get: (key) => store.get(key),
      set: (key, entry, ttlMs) => {
        kept.set(key, ttlMs);
        return store.set(key, entry, ttlMs);
      },
      delete: (key) => store.delete(key),
      close: () => store.close(),
    };
    const file = await scripted(ok());
    const missing = await scripted(status(404));
    const failing = await scripted(status(503));
    const client = new RobotsClient({ userAgent: 'ExampleBot/1.0', store: recording });
    clients.push(client);
    for (const { server } of [file, missing, failing]) await client.check(`${server.origin}/x`);
    const ttl = (server: TestServer) => kept.get(server.origin) ?? NaN;
    // 24 hours fresh, then 30 days in which a server error is answered from this copy.
    assert.ok(Math.abs(ttl(file.server) - 31 * DAY) < 60_000, `file: ${ttl(file.server)}`);
    // No robots.txt: 24 hours fresh, one hour more (30 days before).
    assert.ok(Math.abs(ttl(missing.server) - 25 * HOUR) < 60_000, `404: ${ttl(missing.server)}`);
    // A server error with no copy: retried after a minute, its run remembered an hour more.
    assert.ok(Math.abs(ttl(failing.server) - 61 * 60_000) < 60_000, `503: ${ttl(failing.server)}`);
  });
});
