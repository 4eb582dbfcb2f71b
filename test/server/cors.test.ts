/**
 * CORS as an option: off by default (no header at all); with origins listed, a page of one of
 * them may call the API from a browser, its preflight answered before the token is asked for,
 * and a page of any other origin gets no permission.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type RunningService } from '../../src/server/index.ts';
import { runCli } from '../helpers/cli.ts';

const TOKEN = 'cors-test-token-0123456789';
const APP = 'https://app.example';
let plain: RunningService;
let withCors: RunningService;
before(async () => {
  plain = await startService({ port: 0 });
  withCors = await startService({ port: 0, access: { token: TOKEN, corsOrigins: [APP] } });
});
after(async () => {
  await plain?.close();
  await withCors?.close();
});

const preflight = (base: string, origin: string) =>
  fetch(`${base}/v1/check?url=https://example.com/`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });

test('off by default: no CORS header, even for a preflight', async () => {
  const answer = await preflight(plain.url, APP);
  assert.equal(answer.headers.get('access-control-allow-origin'), null);
  const health = await fetch(`${plain.url}/healthz`, { headers: { origin: APP } });
  assert.equal(health.headers.get('access-control-allow-origin'), null);
});

test('a listed origin: its preflight is answered without the token, its calls with it', async () => {
  const answer = await preflight(withCors.url, APP);
  assert.ok(answer.status === 204 || answer.status === 200, String(answer.status));
  assert.equal(answer.headers.get('access-control-allow-origin'), APP);
  assert.match(answer.headers.get('access-control-allow-headers') ?? '', /authorization/i);
  const call = await fetch(`${withCors.url}/healthz`, { headers: { origin: APP } });
  assert.equal(call.headers.get('access-control-allow-origin'), APP);
  assert.match(call.headers.get('access-control-expose-headers') ?? '', /x-request-id/i);
  // The token is still asked for on the call itself.
  const refused = await fetch(`${withCors.url}/v1/lint`, {
    method: 'POST',
    headers: { origin: APP, 'content-type': 'application/json' },
    body: JSON.stringify({ robots: 'User-agent: *\n' }),
  });
  assert.equal(refused.status, 401);
});

test('another origin gets no permission', async () => {
  const answer = await preflight(withCors.url, 'https://evil.example');
  assert.notEqual(answer.headers.get('access-control-allow-origin'), 'https://evil.example');
  assert.notEqual(answer.headers.get('access-control-allow-origin'), '*');
});

test('serve --cors-origins takes web origins only', async () => {
  const bad = await runCli(['serve', '--port', '0', '--cors-origins', 'https://app.example/']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /not a web origin/);
});
