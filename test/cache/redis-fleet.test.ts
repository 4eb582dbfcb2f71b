/**
 * A fleet of crawler processes sharing one Redis: one fetch per origin however many ask,
 * a dead fetcher does not block the rest, and Redis going away and coming back stops nothing.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { after, describe, test } from 'node:test';
import { RedisStore } from '../../src/cache/redis-entry.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { deleteTestKeys, rawClient, REDIS_URL, testPrefix } from '../helpers/redis.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';
import { startWorker, stopWorkers } from '../helpers/fleet.ts';

const servers: TestServer[] = [];
const children: ChildProcess[] = [];
after(async () => {
  stopWorkers();
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.close()));
  await deleteTestKeys();
});

process.on('unhandledRejection', (reason) => {
  throw new Error(`unhandled rejection: ${String(reason)}`);
});

describe('a fleet on one Redis', () => {
  test('four worker processes checking the same 50 origins at once: exactly one fetch per origin', async () => {
    const counts = new Map<string, number>();
    const origins: string[] = [];
    for (let i = 0; i < 50; i++) {
      const server = await httpServer((req, res) => {
        if (req.url !== '/robots.txt') return void res.writeHead(404).end();
        counts.set(String(i), (counts.get(String(i)) ?? 0) + 1);
        // Slow enough that all four workers ask while the first fetch is in flight.
        setTimeout(() => res.writeHead(200).end(`User-agent: *\nDisallow: /private${i}/\n`), 300);
      });
      servers.push(server);
      origins.push(server.origin);
    }
    const urls = origins.flatMap((origin, i) => [`${origin}/private${i}/x`, `${origin}/public`]);
    const prefix = testPrefix();
    const workers = Array.from({ length: 4 }, () =>
      startWorker({ redisUrl: REDIS_URL, prefix, urls }),
    );
    const results = await Promise.all(workers.map((w) => w.result));
    const warnings = workers.map((w) => w.warnings()).join('');
    assert.deepEqual(
      [...counts.values()].filter((n) => n !== 1),
      [],
      `fetches per origin: ${JSON.stringify([...counts])}\n${warnings}`,
    );
    assert.equal(counts.size, 50);
    for (const verdicts of results) {
      assert.equal(verdicts.length, 100);
      assert.deepEqual(
        verdicts.map((v) => v.allowed),
        urls.map((_, j) => j % 2 === 1),
      );
    }
    assert.ok(results.flat().some((v) => v.source === 'cache' || v.source === 'fetched'));
  });

  test('eight processes starting together, checking one fresh origin: one fetch, no outage logged', async () => {
    let requests = 0;
    const server = await httpServer((req, res) => {
      if (req.url !== '/robots.txt') return void res.writeHead(404).end();
      requests++;
      // Slow enough that every process asks while the first fetch is in flight.
      setTimeout(() => res.writeHead(200).end('User-agent: *\nDisallow: /private/\n'), 1_500);
    });
    servers.push(server);
    const config = {
      redisUrl: REDIS_URL,
      prefix: testPrefix(),
      urls: [`${server.origin}/private/x`],
      coldStart: true,
    };
    const workers = Array.from({ length: 8 }, () => startWorker(config));
    const results = await Promise.all(workers.map((w) => w.result));
    assert.equal(requests, 1, `robots.txt requests: ${requests}`);
    assert.ok(results.every(([verdict]) => verdict!.allowed === false));
    assert.deepEqual(
      workers.map((w) => w.warnings()).filter((text) => text !== ''),
      [],
      'no "Redis is not connected" at start-up',
    );
  });

  test('a fetcher killed mid-lease: another takes over when the lease expires', async () => {
    let requests = 0;
    const server = await httpServer((req, res) => {
      if (req.url !== '/robots.txt') return void res.writeHead(404).end();
      requests++;
      // The first fetch never answers (its fetcher dies); the next one does.
      if (requests > 1) res.writeHead(200).end('User-agent: *\nDisallow: /\n');
    });
    servers.push(server);
    const prefix = testPrefix();
    const config = {
      redisUrl: REDIS_URL,
      prefix,
      urls: [`${server.origin}/page`],
      timeoutMs: 20_000,
      leaseTtlMs: 1_500,
    };
    const first = startWorker(config);
    first.result.catch(() => {}); // it is killed on purpose
    await first.ready;
    while (requests === 0) await new Promise((done) => setTimeout(done, 20));
    const second = startWorker(config);
    await second.ready;
    first.child.kill('SIGKILL');
    const start = Date.now();
    const [verdict] = await second.result;
    assert.deepEqual([verdict!.allowed, requests], [false, 2]);
    // Within the lease (1.5 s) and far less than the first worker's fetch timeout (20 s).
    assert.ok(Date.now() - start < 15_000, 'took over when the lease ran out');
  });
});

describe('Redis stopped and restarted during checks', () => {
  test('checks go on with the per-process cache, a warning says so, Redis is used again when back', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const start = () =>
      spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
    let redis = start();
    children.push(redis);
    const warnings: string[] = [];
    const store = new RedisStore({ url, onWarning: (m) => warnings.push(m), timeoutMs: 200 });
    await store.ready(10_000);
    const server = await httpServer((req, res) =>
      res.writeHead(req.url === '/robots.txt' ? 200 : 404).end('User-agent: *\nDisallow: /x\n'),
    );
    servers.push(server);
    const extra = await httpServer((req, res) =>
      res.writeHead(req.url === '/robots.txt' ? 200 : 404).end('User-agent: *\nDisallow: /y\n'),
    );
    servers.push(extra);
    const client = new RobotsClient({ userAgent: 'Bot', store });

    assert.equal((await client.check(`${server.origin}/x`)).allowed, false);
    redis.kill('SIGKILL');
    await new Promise((done) => redis.once('exit', done));

    // Down: a new origin is fetched and answered; a known one comes from the per-process copy.
    assert.equal((await client.check(`${extra.origin}/y`)).allowed, false);
    assert.equal((await client.check(`${server.origin}/x`)).allowed, false);
    assert.ok(
      warnings.some((w) => /unreachable|not connected|failed|did not answer/.test(w)),
      warnings.join('\n'),
    );

    redis = start();
    children.push(redis);
    await store.ready(15_000);
    await client.forget(`${extra.origin}/`);
    assert.equal((await client.check(`${extra.origin}/y`)).allowed, false);
    const raw = await rawClient(url);
    assert.ok(await raw.get(`repkit:v2:entry:${extra.origin}`), 'written to Redis again');
    await raw.close();
    assert.ok(
      warnings.some((w) => /again/.test(w)),
      warnings.join('\n'),
    );
    await client.close();
    await store.close();
    redis.kill('SIGKILL');
  });
});

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}
