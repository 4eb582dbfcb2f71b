/** `repkit serve` never prints a Redis password: not in its banner, not in its warnings. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';

async function serveStderr(redisUrl: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--redis-url', redisUrl], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // Long enough for the banner and the first connection warnings.
  await new Promise((done) => setTimeout(done, 2_500));
  await new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
  return stderr;
}

test('the password is redacted in the banner and in warnings (wrong password, no server)', async () => {
  for (const url of [
    'redis://someone:s3cretpw@127.0.0.1:6379',
    'redis://someone:s3cretpw@127.0.0.1:1',
  ]) {
    const stderr = await serveStderr(url);
    assert.match(stderr, /serving on http:\/\//, url);
    assert.match(stderr, /redis:\/\/someone:\*\*\*@127\.0\.0\.1/, url);
    assert.ok(!stderr.includes('s3cretpw'), `${url}: ${stderr}`);
    assert.match(stderr, /unreachable|WRONGPASS|AUTH/i, `${url}: a warning was printed`);
  }
});
