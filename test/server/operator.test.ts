/**
 * What operators expect of the service: `/readyz` apart from `/healthz`, a request id taken
 * and echoed, and `LOG_LEVEL`.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { startService, type RunningService } from '../../src/server/index.ts';
import { runCli } from '../helpers/cli.ts';
import { startServeProcess } from '../helpers/service-process.ts';

const TOKEN = 'operator-test-token-0123456789';
let service: RunningService;
before(async () => {
  service = await startService({ port: 0, access: { token: TOKEN } });
});
after(async () => {
  await service?.close();
});

test('/readyz is ready without a token; /healthz and /readyz are open', async () => {
  const ready = await fetch(`${service.url}/readyz`);
  assert.equal(ready.status, 200);
  assert.deepEqual(await ready.json(), { status: 'ready', redis: 'not-configured' });
  assert.equal((await fetch(`${service.url}/healthz`)).status, 200);
});

test('with its Redis down the service is alive (/healthz) but not ready (/readyz 503)', async () => {
  // A port that takes connections and never answers: Redis that hangs.
  const sockets = new Set<import('node:net').Socket>();
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
  const port = (silent.address() as { port: number }).port;
  const down = await startService({ port: 0, redisUrl: `redis://127.0.0.1:${port}` });
  try {
    const health = await fetch(`${down.url}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { redis: string }).redis, 'down');
    const ready = await fetch(`${down.url}/readyz`);
    assert.equal(ready.status, 503);
    assert.deepEqual(await ready.json(), { status: 'not-ready', redis: 'down' });
  } finally {
    await down.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => silent.close(done));
  }
});

test('a caller’s X-Request-Id is echoed; an unusable one is replaced, and every answer has one', async () => {
  const given = await fetch(`${service.url}/healthz`, {
    headers: { 'x-request-id': 'abc-123.x:y' },
  });
  assert.equal(given.headers.get('x-request-id'), 'abc-123.x:y');
  const odd = await fetch(`${service.url}/healthz`, { headers: { 'x-request-id': 'a b<script>' } });
  assert.match(odd.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  // Refused for want of a token, still with its id.
  const refused = await fetch(`${service.url}/v1/check?url=https://example.com/`, {
    headers: { 'x-request-id': 'refused-1' },
  });
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get('x-request-id'), 'refused-1');
});

test('LOG_LEVEL sets the log level; one that is no level is a usage error', async () => {
  const bad = await runCli(['serve', '--port', '0'], { env: { LOG_LEVEL: 'loud' } });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /LOG_LEVEL must be one of trace, debug, info/);
  const served = await startServeProcess([], { LOG_LEVEL: 'debug' }, { stdout: true });
  let out = '';
  served.child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  try {
    await fetch(`${served.url}/healthz`, { headers: { 'x-request-id': 'logged-1' } });
    const since = Date.now();
    while (!out.includes('logged-1') && Date.now() - since < 30_000) {
      await new Promise((done) => setTimeout(done, 50));
    }
    const line = out.split('\n').find((l) => l.includes('logged-1'));
    assert.ok(line, `no log line for the request in: ${out.slice(0, 500)}`);
    assert.equal((JSON.parse(line) as { reqId: string }).reqId, 'logged-1');
    // A URL's user info in the query is not logged (the password was): no secrets in logs.
    const secret = encodeURIComponent('https://user:hunter2secret@127.0.0.1/x');
    await fetch(`${served.url}/v1/check?url=${secret}&agent=Bot`, {
      headers: { 'x-request-id': 'logged-2' },
    });
    while (!out.includes('logged-2') && Date.now() - since < 30_000) {
      await new Promise((done) => setTimeout(done, 50));
    }
    const logged = out.split('\n').filter((l) => l.includes('logged-2'));
    assert.ok(logged.length > 0, `no log line for the request in: ${out.slice(0, 500)}`);
    assert.doesNotMatch(logged.join('\n'), /hunter2secret|user/);
    assert.match(logged.join('\n'), /url=https%3A%2F%2F\*\*\*%40127\.0\.0\.1%2Fx/);
  } finally {
    await served.stop();
  }
});
