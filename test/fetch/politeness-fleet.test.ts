/**
 * Fleet politeness: two crawler processes on one Redis share each host's turns, so a
 * Crawl-delay spaces the fleet's requests and a 429 seen by one process holds the other off.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import { deleteTestKeys, REDIS_URL, testPrefix } from '../helpers/redis.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';
import { ROOT } from '../helpers/shared.ts';
import { childEnv } from '../helpers/child-env.ts';

const run = promisify(execFile);
const servers: TestServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await deleteTestKeys();
});

type Answer = number | { kind: 'go' | 'wait'; waitMs?: number; crawlDelayMs: number };

async function worker(prefix: string, steps: unknown[]): Promise<Answer[]> {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      resolve(ROOT, 'test/helpers/politeness-worker.ts'),
      JSON.stringify({ redisUrl: REDIS_URL, prefix, steps }),
    ],
    { cwd: ROOT, env: childEnv() },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Answer[];
}

test('two processes on one Redis: Crawl-delay turns and Retry-After pauses are shared', async () => {
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') res.writeHead(200).end('User-agent: *\nCrawl-delay: 30\n');
    else res.writeHead(404).end();
  });
  servers.push(server);
  const other = await httpServer((req, res) => res.writeHead(404).end());
  servers.push(other);
  const prefix = testPrefix();
  const [first] = await worker(prefix, [{ kind: 'turn', url: `${server.origin}/a` }]);
  assert.deepEqual(first, { kind: 'go', crawlDelayMs: 30_000 });
  const [second] = await worker(prefix, [{ kind: 'turn', url: `${server.origin}/b` }]);
  assert.equal(typeof second === 'object' && second.kind, 'wait');
  const waited = typeof second === 'object' ? second.waitMs! : 0;
  // What is left of the first process's 30 s turn (however long the second took to start).
  assert.ok(waited > 0 && waited <= 30_000, `second process waits ${waited} ms`);

  // A 429 with Retry-After: 20 seen by one process; the other is held off that host only.
  const [pause] = await worker(prefix, [
    { kind: 'backOff', url: `${other.origin}/x`, retryAfter: '20' },
  ]);
  assert.equal(pause, 20_000);
  const [held, elsewhere] = await worker(prefix, [
    { kind: 'turn', url: `${other.origin}/y` },
    { kind: 'turn', url: `${server.origin.replace('127.0.0.1', 'localhost')}/z` },
  ]);
  assert.equal(typeof held === 'object' && held.kind, 'wait');
  assert.ok(typeof held === 'object' && held.waitMs! > 10_000 && held.waitMs! <= 20_000);
  assert.equal(typeof elsewhere === 'object' && elsewhere.kind, 'go');
});
