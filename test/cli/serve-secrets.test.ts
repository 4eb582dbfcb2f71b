/** `repkit serve` never prints a Redis password: not in its banner, not in its warnings. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';
import { childEnv } from '../helpers/child-env.ts';
import { REDIS_URL } from '../helpers/redis.ts';

/**
 * `repkit serve --redis-url <url>`'s stderr, once it has said it serves and warned about the
 * store (or after a minute, for a machine far slower than any), then it is stopped.
 */
async function serveStderr(redisUrl: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--redis-url', redisUrl], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  try {
    await new Promise<void>((done) => {
      const limit = setTimeout(done, 60_000);
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (/serving on/.test(stderr) && /unreachable|WRONGPASS|AUTH/i.test(stderr)) {
          clearTimeout(limit);
          done();
        }
      });
      child.once('exit', () => {
        clearTimeout(limit);
        done();
      });
    });
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  }
  return stderr;
}

test('the password is redacted in the banner and in warnings (wrong password, no server)', async () => {
  // The tests' Redis (REDIS_URL) with a password it does not have, and a port nothing serves.
  const { host } = new URL(REDIS_URL);
  for (const url of [`redis://someone:s3cretpw@${host}`, 'redis://someone:s3cretpw@127.0.0.1:1']) {
    const stderr = await serveStderr(url);
    assert.match(stderr, /serving on http:\/\//, url);
    assert.match(stderr, /redis:\/\/someone:\*\*\*@/, url);
    assert.ok(!stderr.includes('s3cretpw'), `${url}: ${stderr}`);
    assert.match(stderr, /unreachable|WRONGPASS|AUTH/i, `${url}: a warning was printed`);
  }
});
