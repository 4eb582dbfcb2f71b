/**
 * The worker threads are shared fairly: one client filling the queue is refused past its
 * share while another is still served, and a request's own large files wait their turn
 * instead of being refused for the request's shape.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, describe, test } from 'node:test';
import { isWorkRefusedError, WorkPool } from '../../src/server/work/pool.ts';
import { startService, type RunningService } from '../../src/server/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

/** A POST of JSON from `localAddress`; answers status and body. */
function post(
  url: string,
  body: unknown,
  localAddress: string,
): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const data = JSON.stringify(body);
    const req = httpRequest(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => done({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', fail);
    req.end(data);
  });
}

/** A robots.txt of about 480 KiB: linting it takes a worker a noticeable while. */
function bigFile(): string {
  let body = 'User-agent: *\n';
  for (let i = 0; body.length < 480 * 1024; i++) body += `Disallow: /*a*b*c*${i}/x$\n`;
  return body;
}

test('one client past its share of the workers is refused; another client is served meanwhile', async () => {
  const service: RunningService = await startService({
    port: 0,
    limits: { work: { threads: 1, maxQueue: 8 } },
  });
  closing.push(service);
  const robots = bigFile();
  const flood = Array.from({ length: 12 }, () =>
    post(`${service.url}/v1/lint`, { robots }, '127.0.0.1'),
  );
  await new Promise((done) => setTimeout(done, 30));
  const other = await post(
    `${service.url}/v1/lint`,
    { robots: 'User-agent: *\nDisallow: /x\n' },
    '127.0.0.3',
  );
  const answers = await Promise.all(flood);
  assert.equal(other.status, 200, other.body);
  const refused = answers.filter((a) => a.status === 429);
  assert.ok(refused.length >= 6, `${refused.length} of 12 refused`);
  assert.match(
    refused[0]!.body,
    /this client already has 4 tasks waiting or running \(at most 4\)/,
  );
  assert.equal(answers.filter((a) => a.status === 200).length, 12 - refused.length);
});

test("a request's own large files wait their turn: 20 origins of 70 KiB on an 8-place queue", async () => {
  const sites: TestServer[] = [];
  const file = 'User-agent: *\n' + 'Disallow: /private/\n'.repeat(3_700);
  for (let i = 0; i < 20; i++) {
    const site = await httpServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(200).end(file);
      res.writeHead(404).end();
    });
    sites.push(site);
    closing.push(site);
  }
  const service: RunningService = await startService({
    port: 0,
    allowAddress: () => true,
    limits: { work: { threads: 1, maxQueue: 8 } },
  });
  closing.push(service);
  const urls = sites.map((s) => `${s.origin}/private/a`);
  const answer = await post(`${service.url}/v1/check`, { urls, agent: 'bot' }, '127.0.0.1');
  assert.equal(answer.status, 200, answer.body);
  const { results } = JSON.parse(answer.body) as { results: { allowed: boolean }[] };
  assert.equal(results.length, 20);
  assert.ok(results.every((r) => r.allowed === false));
});

describe('the work pool, with tasks that take a known time', () => {
  const sleeper = new URL('../fixtures/work/sleep-worker.mjs', import.meta.url).href;
  /** Runs the test worker's `sleep` for `client` (the pool's task names are the service's). */
  const sleep = (pool: WorkPool, ms: number, client: string) =>
    pool.run(
      'sleep' as 'lint',
      { ms } as unknown as { robots: string },
      client,
    ) as unknown as Promise<number>;

  test("another client's task waits one task, not the whole line, and its deadline counts only its work", async () => {
    const pool = new WorkPool({ threads: 1, maxQueue: 32, deadlineMs: 3_000, module: sleeper });
    closing.push(pool);
    // One client's twelve tasks of 300 ms: 3.6 s of work, past the deadline if waits counted.
    const flood = Array.from({ length: 12 }, () => sleep(pool, 300, 'a'));
    await new Promise((done) => setTimeout(done, 50));
    const order: string[] = [];
    const other = sleep(pool, 10, 'b').then((ms) => (order.push('b'), ms));
    const results = await Promise.allSettled(
      flood.map((p) => p.then((ms) => (order.push('a'), ms))),
    );
    assert.equal(await other, 10);
    assert.deepEqual(
      results.map((r) => r.status),
      Array(12).fill('fulfilled'),
    );
    // b's one task went second: the first of a's was on the thread when it came.
    assert.ok(order.indexOf('b') <= 2, order.join(' '));
  });

  test('a task waiting longer than maxWaitMs is refused as busy, never run late', async () => {
    const pool = new WorkPool({ threads: 1, maxQueue: 8, maxWaitMs: 200, module: sleeper });
    closing.push(pool);
    const long = sleep(pool, 1_000, 'a');
    await assert.rejects(sleep(pool, 1, 'b'), (error: unknown) => {
      assert.ok(isWorkRefusedError(error));
      assert.equal(error.reason, 'busy');
      return true;
    });
    assert.equal(await long, 1_000);
  });
});
