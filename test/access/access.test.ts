/**
 * Who may call repkit's HTTP endpoints, read one way for the service and for
 * `repkit mcp --http` (each is also tested end to end in its own suite).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServer } from 'node:http';
import {
  allowedHostSet,
  answersHost,
  bearerCheck,
  drainOf,
  isWildcard,
} from '../../src/access/index.ts';

test('Host names: loopback and the listened address by default, a list, or any', () => {
  const cases: [readonly string[] | undefined, string, string | undefined, boolean][] = [
    [undefined, '127.0.0.1', '127.0.0.1:8080', true],
    [undefined, '127.0.0.1', 'localhost:8080', true],
    [undefined, '127.0.0.1', '[::1]:8080', true],
    [undefined, '127.0.0.1', 'evil.example:8080', false],
    [undefined, '127.0.0.1', undefined, false],
    [undefined, '::1', '[::1]', true],
    [undefined, '192.0.2.7', '192.0.2.7:80', true],
    // Every address: its names are the operator's to list; until then any is answered.
    [undefined, '0.0.0.0', 'anything.example', true],
    [undefined, '::', 'anything.example', true],
    [['repkit.test'], '0.0.0.0', 'REPKIT.test:443', true],
    [['repkit.test'], '0.0.0.0', 'other.test', false],
    [['repkit.test'], '0.0.0.0', 'localhost', true],
    // A name with a port answers that port only.
    [['repkit.test:8080'], '0.0.0.0', 'repkit.test:8080', true],
    [['repkit.test:8080'], '0.0.0.0', 'repkit.test:9090', false],
    [['*'], '127.0.0.1', 'anything.example', true],
  ];
  for (const [given, listen, host, answered] of cases) {
    const allowed = allowedHostSet(given, listen);
    assert.equal(answersHost(allowed, host), answered, `${given} ${listen} ${host}`);
  }
  assert.ok(isWildcard('[::]') && !isWildcard('127.0.0.1'));
});

test('the bearer token: the exact token, in the Bearer scheme', () => {
  const hasToken = bearerCheck('s3cret-token-0123');
  assert.equal(hasToken('Bearer s3cret-token-0123'), true);
  assert.equal(hasToken('bearer   s3cret-token-0123 '), true);
  for (const header of [
    undefined,
    '',
    's3cret-token-0123',
    'Basic s3cret-token-0123',
    'Bearer s3cret-token-012',
    'Bearer s3cret-token-01234',
    'Bearer s3cret-token-0123 extra',
  ]) {
    assert.equal(hasToken(header), false, String(header));
  }
});

test('a drain says when stopping has begun (what /readyz answers 503 for)', async () => {
  const server = createServer((_req, res) => res.end('ok'));
  const drain = drainOf(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    assert.equal(drain.stopping, false);
    const stopped = drain.begin(1_000);
    assert.equal(drain.stopping, true);
    await stopped;
  } finally {
    await new Promise((done) => server.close(done));
  }
});
