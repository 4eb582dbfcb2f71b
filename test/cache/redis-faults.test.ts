/**
 * A hung Redis (its process stopped with SIGSTOP: the connection stays open, nothing answers),
 * a Redis killed and restarted, and keys that would choose their own cluster slot. The Redis here is a server this test
 * starts on a free port, and stops and kills by PID.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { after, describe, test } from 'node:test';
import { RedisStore } from '../../src/cache/redis-entry.ts';
import type { CacheEntry } from '../../src/cache/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { freePorts } from '../helpers/redis-cluster.ts';
import { httpServer } from '../helpers/servers.ts';
import { deleteTestKeys, rawClient, REDIS_URL, testPrefix } from '../helpers/redis.ts';

const children: ChildProcess[] = [];
after(() => {
  for (const child of children) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
});

/** An entry whose body is `text`. */
function entry(text: string): CacheEntry {
  const body = Buffer.from(text).toString('base64');
  return {
    v: 1,
    robotsUrl: 'https://a.example/robots.txt',
    outcome: 'ok',
    status: 200,
    body,
    headers: {},
    chain: ['https://a.example/robots.txt'],
    fetchedAt: Date.now(),
    expiresAt: Date.now() + 60_000,
  };
}

async function startRedis(port?: number): Promise<{ url: string; redis: ChildProcess }> {
  port ??= (await freePorts(1))[0]!;
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  children.push(redis);
  return { url: `redis://127.0.0.1:${port}`, redis };
}

function bodyOf(entry: CacheEntry | undefined): string {
  return Buffer.from(entry?.body ?? '', 'base64').toString();
}

/** The body of an entry as Redis holds it: deflated by the store, or as a test wrote it. */
function storedBody(raw: string): string {
  const stored = JSON.parse(raw) as CacheEntry & { deflated?: boolean };
  return stored.deflated
    ? inflateRawSync(Buffer.from(stored.body ?? '', 'base64')).toString('utf8')
    : bodyOf(stored);
}

/** How long `call` took, in ms. */
async function timed(call: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await call();
  return performance.now() - start;
}

describe('a hung Redis', () => {
  test('after a few timeouts the fallback answers at once; one probe finds Redis back', async (t) => {
    const { url, redis } = await startRedis();
    const warnings: string[] = [];
    const timeoutMs = 2_000;
    const store = new RedisStore({ url, timeoutMs, onWarning: (m) => warnings.push(m) });
    // Whatever happens: a store left reconnecting keeps the file's process alive.
    t.after(async () => {
      redis.kill('SIGCONT');
      await store.close().catch(() => {});
      redis.kill('SIGKILL');
    });
    await store.ready(10_000);
    await store.set('https://a.example', entry('User-agent: *\nDisallow: /a\n'), 60_000);

    redis.kill('SIGSTOP');
    // The first calls wait their timeout: Redis might only be slow.
    for (let i = 0; i < 3; i++) {
      assert.ok((await timed(() => store.get('https://b.example'))) >= timeoutMs * 0.9);
    }
    assert.equal(store.connected, false, 'the breaker is open');
    // Then no call waits: before the breaker, each of these took the full second.
    let slowest = 0;
    for (let i = 0; i < 50; i++) {
      slowest = Math.max(slowest, await timed(() => store.takeTurn('https://c.example', 0)));
      const read = await store.get('https://a.example');
      assert.match(bodyOf(read), /Disallow: \/a/);
    }
    assert.ok(slowest < timeoutMs / 2, `slowest call while hung: ${slowest.toFixed(0)} ms`);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /did not answer within 2000 ms/);

    redis.kill('SIGCONT');
    const back = Date.now();
    while (!store.connected && Date.now() - back < 10_000) {
      await new Promise((done) => setTimeout(done, 50));
    }
    assert.equal(store.connected, true, 'the probe closed the breaker');
    // Reads go to Redis again: a value written there by another process is seen.
    const raw = await rawClient(url);
    await raw.set('repkit:v2:entry:https://d.example', JSON.stringify(entry('from redis')));
    const read = await store.get('https://d.example');
    await raw.close();
    assert.equal(bodyOf(read), 'from redis');
    assert.match(warnings.at(-1)!, /answers again/);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    await store.close();
    redis.kill('SIGKILL');
  });
});

describe('an outage', () => {
  test('what a process read from Redis answers while it is down, not only what it wrote', async (t) => {
    const { url, redis } = await startRedis();
    const store = new RedisStore({ url, timeoutMs: 300, onWarning: () => {} });
    t.after(() => store.close().catch(() => {}));
    await store.ready(10_000);
    // Written by another process of the fleet, read by this one.
    const raw = await rawClient(url);
    await raw.set('repkit:v2:entry:https://a.example', JSON.stringify(entry('shared file')));
    await raw.close();
    assert.equal(bodyOf(await store.get('https://a.example')), 'shared file');

    redis.kill('SIGKILL');
    await new Promise((done) => redis.once('exit', done));
    assert.equal(bodyOf(await store.get('https://a.example')), 'shared file');
    await store.close();
  });

  test('what was written while Redis was down is written back when it answers again', async () => {
    const [port] = await freePorts(1);
    const first = await startRedis(port);
    const url = first.url;
    let redis = first.redis;
    const warnings: string[] = [];
    const store = new RedisStore({ url, timeoutMs: 300, onWarning: (m) => warnings.push(m) });
    try {
      await store.ready(10_000);
      redis.kill('SIGKILL');
      await new Promise((done) => redis.once('exit', done));
      await store.set(
        'https://fetched-while-down.example',
        entry('fetched during the outage'),
        60_000,
      );
      await store.set('https://written-by-another.example', entry('mine'), 60_000);

      ({ redis } = await startRedis(port));
      await store.ready(15_000);
      const raw = await rawClient(url);
      // Another process wrote this one first: its entry is kept.
      await raw.set(
        'repkit:v2:entry:https://written-by-another.example',
        JSON.stringify(entry('theirs')),
      );
      const key = 'repkit:v2:entry:https://fetched-while-down.example';
      const since = Date.now();
      while ((await raw.get(key)) === null && Date.now() - since < 10_000) {
        // Any call finds Redis back (the client reconnects by itself; a call confirms it).
        await store.get('https://nothing.example');
        await new Promise((done) => setTimeout(done, 50));
      }
      const written = await raw.get(key);
      const other = await raw.get('repkit:v2:entry:https://written-by-another.example');
      const ttl = await raw.pTTL(key);
      await raw.close();
      assert.ok(written, warnings.join('\n'));
      assert.equal(storedBody(written), 'fetched during the outage');
      assert.equal(storedBody(other!), 'theirs');
      assert.ok(ttl > 0 && ttl <= 60_000, `expires as it would have: ${ttl} ms`);
    } finally {
      // Even when an assertion fails: a store left reconnecting keeps the file's process alive.
      await store.close();
      redis.kill('SIGKILL');
    }
  });
});

describe('a lease left behind', () => {
  test('a holder that loses the store holds the others for one lease time, and waiters back off', async (t) => {
    const prefix = testPrefix();
    let robotsAsked = 0;
    const server = await httpServer((req, res) => {
      if (req.url !== '/robots.txt') return void res.writeHead(404).end();
      // The first fetch (process A's) never answers; later ones do.
      if (robotsAsked++ === 0) return;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /x\n');
    });
    // Closed whatever happens (in reverse order), so that a failure cannot hold the file open.
    const opened: { close(): Promise<unknown> }[] = [server];
    t.after(async () => {
      for (const thing of opened.reverse()) await thing.close().catch(() => {});
      await deleteTestKeys();
    });
    const storeA = new RedisStore({ url: REDIS_URL, prefix, onWarning: () => {} });
    opened.push(storeA);
    await storeA.ready();
    const a = new RobotsClient({ userAgent: 'Bot', store: storeA, timeoutMs: 30_000 });
    opened.push(a);
    void a.check(`${server.origin}/x`).catch(() => {});
    while (robotsAsked === 0) await new Promise((done) => setTimeout(done, 20));
    // A holds the lease and is fetching; then it loses Redis for good.
    await storeA.close();

    let calls = 0;
    class Counting extends RedisStore {
      override async get(key: string) {
        calls++;
        return super.get(key);
      }
      override async acquireLease(key: string, ttlMs: number) {
        calls++;
        return super.acquireLease(key, ttlMs);
      }
    }
    const storeB = new Counting({ url: REDIS_URL, prefix, onWarning: () => {} });
    opened.push(storeB);
    await storeB.ready();
    const b = new RobotsClient({ userAgent: 'Bot', store: storeB, timeoutMs: 30_000 });
    opened.push(b);
    const started = Date.now();
    const result = await b.check(`${server.origin}/x`);
    const waited = Date.now() - started;
    assert.equal(result.allowed, false);
    assert.equal(robotsAsked, 2, "B fetched once A's lease ran out");
    // A's lease (5 s, no longer renewed) ran out: B did not wait out A's 35 s fetch window
    // (a loaded machine may add seconds to the 5, never 30).
    assert.ok(waited < 30_000, `B waited ${waited} ms`);
    // Backing off: a few dozen store calls, not two every 50 ms (about 200 in 5 s).
    assert.ok(calls < 40, `${calls} store calls while waiting`);
  });
});

describe('closing', () => {
  test('a store closed while its socket is being opened leaves no connection behind', async (t) => {
    // A server that takes connections and answers nothing: the socket opens, and stays open
    // for as long as the store keeps it.
    const open = new Set<Socket>();
    let accepted = 0;
    const server = createServer((socket) => {
      accepted++;
      open.add(socket);
      socket.on('close', () => open.delete(socket)).on('error', () => {});
    });
    t.after(() => {
      for (const socket of open) socket.destroy();
      return new Promise<void>((done) => server.close(() => done()));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    for (let round = 0; round < 5; round++) {
      const store = new RedisStore({ url: `redis://127.0.0.1:${port}`, onWarning: () => {} });
      // At once: the first socket is still being opened (before this, node-redis opened it
      // after the close and kept it, and `repkit serve` on a taken port never exited).
      await store.close();
    }
    // Every store's socket reached the server, and none of them is open any more.
    const deadline = Date.now() + 10_000;
    while ((accepted < 5 || open.size > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(accepted, 5, 'connections the stores opened');
    assert.equal(open.size, 0, 'connections left open by closed stores');
  });
});

describe('keys', () => {
  test('an origin with braces does not choose its cluster slot: `{` and `}` are escaped', async (t) => {
    const prefix = testPrefix();
    const store = new RedisStore({ url: REDIS_URL, prefix });
    t.after(async () => {
      await store.close().catch(() => {});
      await deleteTestKeys();
    });
    await store.ready();
    const origin = 'https://{shared}.example';
    await store.set(origin, entry('User-agent: *\nDisallow: /\n'), 60_000);
    await store.set('https://%7Bshared%7D.example', entry('another site'), 60_000);
    const raw = await rawClient();
    const keys: string[] = [];
    for await (const batch of raw.scanIterator({ MATCH: `${prefix}:*` })) {
      keys.push(...(Array.isArray(batch) ? batch : [batch]));
    }
    await raw.close();
    assert.equal(keys.length, 2, keys.join(', '));
    for (const key of keys) assert.doesNotMatch(key, /[{}]/, key);
    // Escaping is one-to-one: the two sites keep their own entries.
    assert.match(bodyOf(await store.get(origin)), /Disallow/);
    assert.equal(bodyOf(await store.get('https://%7Bshared%7D.example')), 'another site');
  });
});
