/**
 * The environment of `repkit serve` is read by `serve` alone: a bad REDIS_URL or PORT never
 * breaks another command, and is a one-line error naming the variable for `serve`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServer, type AddressInfo } from 'node:net';
import { runCli } from '../helpers/cli.ts';
import { REDIS_URL } from '../helpers/redis.ts';
import { startServeProcess } from '../helpers/service-process.ts';

test('REDIS_URL=foo breaks neither --version nor check; serve names the variable', async () => {
  const env = { REDIS_URL: 'foo', PORT: 'abc' };
  const version = await runCli(['--version'], { env });
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  const check = await runCli(
    ['check', '--robots', 'examples/robots.txt', '--agent', 'x', 'https://example.com/'],
    { env },
  );
  assert.equal(check.code, 0, check.stderr);
  for (const [variables, named] of [
    [
      { REDIS_URL: 'foo' },
      /^repkit: REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL, got "foo"\n$/,
    ],
    [{ PORT: 'abc' }, /^repkit: PORT must be an integer from 0 to 65535, got "abc"\n$/],
    [
      { REPKIT_ALLOW_PRIVATE_ADDRESSES: 'maybe' },
      /^repkit: REPKIT_ALLOW_PRIVATE_ADDRESSES must be true, false, 1, 0, yes or no, got "maybe"\n$/,
    ],
  ] as const) {
    const serve = await runCli(['serve'], { env: variables });
    assert.equal(serve.code, 2, serve.stderr);
    assert.match(serve.stderr, named);
  }
});

test('an empty HOST is unset (loopback), never every address; an empty --host is an error', async () => {
  const served = await startServeProcess([], { HOST: '' });
  try {
    assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  } finally {
    await served.stop();
  }
  const blank = await runCli(['serve', '--port', '0'], { env: { HOST: '   ' } });
  assert.equal(blank.code, 2);
  assert.match(blank.stderr, /HOST is empty/);
  const flag = await runCli(['serve', '--port', '0', '--host', '']);
  assert.equal(flag.code, 2);
  assert.match(flag.stderr, /--host is empty: give an address \(0\.0\.0\.0 or :: for every one\)/);
});

test('serve exits with its error when its port is taken, with Redis configured or not', async (t) => {
  const taken = createServer();
  t.after(() => new Promise<void>((done) => taken.close(() => done())));
  await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
  const { port } = taken.address() as AddressInfo;
  for (const redis of [[], ['--redis-url', REDIS_URL]]) {
    // runCli waits for the process to exit: a hang fails the file by its timeout.
    const run = await runCli(['serve', '--port', String(port), ...redis]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /cannot listen on 127\.0\.0\.1:\d+: the address is in use/);
  }
});
