/**
 * What an operator sees of `repkit serve`: the version and any unsafe setting at start-up,
 * HTTP requests by route and status and the store's state in /metrics, and a logged shutdown.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';
import { childEnv } from '../helpers/child-env.ts';

const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

test('banner with version and warnings, metrics by route and status, store gauge, logged shutdown', async () => {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--host', '0.0.0.0', '--allow-private-addresses'],
    { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const since = Date.now();
  // The banner and the warnings after it (the last one says private addresses may be fetched).
  while (!/may be fetched/.test(stderr) && Date.now() - since < 15_000) {
    await new Promise((done) => setTimeout(done, 50));
  }
  const port = new URL(/serving on (http:\/\/\S+)/.exec(stderr)![1]!).port;
  const base = `http://127.0.0.1:${port}`;
  assert.match(stderr, new RegExp(`repkit ${VERSION.replaceAll('.', '\\.')}: serving on`));
  assert.match(
    stderr,
    /warning: listening on every address with no --token.*no --allowed-hosts.*no --rate-limit/,
  );
  assert.match(stderr, /warning: private, loopback and link-local addresses may be fetched/);

  assert.equal((await fetch(`${base}/v1/check?url=not-a-url`)).status, 400);
  assert.equal((await fetch(`${base}/v1/nothing`)).status, 404);
  const metrics = await (await fetch(`${base}/metrics`)).text();
  assert.match(
    metrics,
    /repkit_http_request_duration_seconds_count\{route="\/v1\/check",method="GET",status="400"\} 1/,
  );
  assert.match(
    metrics,
    /repkit_http_request_duration_seconds_count\{route="unmatched",method="GET",status="404"\} 1/,
  );
  assert.match(metrics, /^repkit_store_up 1$/m);

  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.kill('SIGTERM');
  assert.equal(await exit, 0);
  assert.match(stderr, /SIGTERM: stopping \(\d+ connections? open\)/);
  assert.match(stderr, /stopped in \d+ ms/);
});
