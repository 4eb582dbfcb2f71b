/**
 * The CLI at the 2026 edge (issue 31): check says which reading of a wall decided and exits
 * 3 (ask again later) by default; --challenge literal reads it as Google does; --json records
 * carry `edge`; lint reports a walled robots.txt as the error it is; --web-bot-auth-key signs
 * and --crawler-max-price offers a price, seen at the receiving site.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { TEST_KEY, verifyRequest } from '../helpers/web-bot-auth.ts';
import { edgeSite, type EdgeKind } from '../helpers/edge-sites.ts';
import { jsonLines, runCli, scratchFiles } from '../helpers/cli.ts';
import type { TestServer } from '../helpers/servers.ts';

const closing: TestServer[] = [];
after(async () => {
  for (const server of closing.splice(0)) await server.close();
});

async function site(kind: EdgeKind | string): Promise<TestServer> {
  const server = await edgeSite(kind);
  closing.push(server);
  return server;
}

test('check: a wall disallows for now (exit 3) and says so; --challenge literal allows', async () => {
  const server = await site('cloudflare');
  const url = `${server.origin}/page`;
  const walled = await runCli(['check', url, '--agent', 'ExampleBot']);
  assert.equal(walled.code, 3, walled.stderr);
  assert.match(
    walled.stdout,
    /^disallowed {2}\S+ {2}robots-txt-challenge: a bot wall answered \(cloudflare\): status 403; cf-mitigated: challenge/,
  );
  const literal = await runCli(['check', url, '--agent', 'ExampleBot', '--challenge', 'literal']);
  assert.equal(literal.code, 0, literal.stderr);
  assert.match(literal.stdout, /^allowed {5}\S+ {2}robots-txt-challenge-literal: a bot wall/);
  const wrong = await runCli(['check', url, '--agent', 'ExampleBot', '--challenge', 'ignore']);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /--challenge.*unreachable, literal/);
});

test('check --json: the record carries the edge, a payment demand with its price', async () => {
  const server = await site('pay-per-crawl');
  const { stdout, code } = await runCli([
    'check',
    `${server.origin}/page`,
    '--agent',
    'ExampleBot',
    '--json',
  ]);
  assert.equal(code, 3);
  const [record] = jsonLines(stdout);
  assert.equal(record?.reason, 'robots-txt-challenge');
  assert.deepEqual(record?.edge, {
    kind: 'payment-required',
    evidence: ['status 402', 'crawler-price: USD 0.01'],
    price: { scheme: 'crawler-price', currency: 'USD', amount: '0.01' },
  });
});

test('lint <site> on a wall: an error naming the wall and the reading, text and JSON', async () => {
  const server = await site('anubis');
  const text = await runCli(['lint', server.origin]);
  assert.equal(text.code, 1, text.stderr);
  assert.match(
    text.stdout,
    /robots\.txt: error {2}a bot wall answered \(anubis\): status 202; body: id="anubis_challenge"; read as unreachable: everything disallowed for now/,
  );
  const json = await runCli(['lint', server.origin, '--json']);
  const [report] = jsonLines(json.stdout);
  assert.equal(report?.reading, 'unreachable');
  assert.equal((report?.edge as { vendor?: string })?.vendor, 'anubis');
  assert.equal(report?.errors, 1);
  // Read literally, the page is linted as the file Google reads: an HTML page.
  const literal = await runCli(['lint', server.origin, '--challenge', 'literal']);
  assert.equal(literal.code, 1);
  assert.match(literal.stdout, /read literally, as Google does/);
  assert.match(literal.stdout, /html-content/);
});

test('--web-bot-auth-key signs the CLI requests; --crawler-max-price offers on pages', async () => {
  const key = TEST_KEY;

  const file = scratchFiles('repkit-cli-wba-')('key.json', JSON.stringify(key));
  const server = await site('User-agent: *\nAllow: /\n');
  const { code, stderr } = await runCli([
    'usage',
    `${server.origin}/article`,
    '--agent',
    'ExampleBot',
    '--web-bot-auth-key',
    file,
    '--signature-agent',
    'https://bot.example',
    '--crawler-max-price',
    'USD 0.02',
  ]);
  assert.equal(code, 0, stderr);
  for (const request of server.requests) {
    await verifyRequest(request);
    assert.equal(request.headers['signature-agent'], 'sig1="https://bot.example"');
  }
  const page = server.requests.find((r) => r.path === '/article');
  assert.equal(page?.headers['crawler-max-price'], 'USD 0.02');
  const robots = server.requests.find((r) => r.path === '/robots.txt');
  assert.equal(robots?.headers['crawler-max-price'], undefined);
  const alone = await runCli([
    'check',
    `${server.origin}/`,
    '--agent',
    'X',
    '--signature-agent',
    'https://bot.example',
  ]);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /--signature-agent needs --web-bot-auth-key/);
});

test('agents <site>: a wall blocks every crawler by default; --challenge literal is heard', async () => {
  const server = await site('cloudflare');
  const walled = await runCli(['agents', server.origin, '--json']);
  const records = jsonLines(walled.stdout);
  assert.ok(records.length > 100);
  assert.ok(records.every((r) => r.allowed === false));
  const literal = await runCli(['agents', server.origin, '--json', '--challenge', 'literal']);
  assert.ok(jsonLines(literal.stdout).every((r) => r.allowed === true));
});

test('fetch <site> --json: the edge and its reading, and --challenge is heard', async () => {
  const server = await site('pay-per-crawl');
  const walled = jsonLines((await runCli(['fetch', server.origin, '--json'])).stdout)[0];
  assert.deepEqual([walled?.outcome, walled?.reading], ['error', 'unreachable']);
  assert.equal((walled?.edge as { kind?: string })?.kind, 'payment-required');
  const literal = await runCli(['fetch', server.origin, '--json', '--challenge', 'literal']);
  const read = jsonLines(literal.stdout)[0];
  assert.deepEqual([read?.outcome, read?.reading], ['not-found', 'literal']);
});

test('a signing key that cannot be used is a usage error at start (exit 2, with the cause), not an outage', async () => {
  const server = await site('html');
  const files = scratchFiles('repkit-cli-badkey-');
  const notJwk = files('key.txt', 'this is not a key SECRETBYTES');
  const rsa = files('rsa.json', JSON.stringify({ kty: 'RSA', n: 'x', e: 'AQAB' }));
  const missing = `${notJwk}.gone`;
  for (const [key, cause] of [
    [notJwk, /webBotAuth\.key.*is not JSON \(a JWK is\)/],
    [rsa, /Ed25519 private key as a JWK/],
    [missing, /cannot be read: no such file/],
  ] as const) {
    for (const args of [
      ['check', `${server.origin}/page`, '--agent', 'ExampleBot'],
      ['fetch', server.origin],
      ['serve', '--port', '0'],
    ]) {
      const run = await runCli([...args, '--web-bot-auth-key', key]);
      assert.equal(run.code, 2, `${args[0]} ${key}: ${run.stderr}`);
      assert.match(run.stderr, cause);
      assert.doesNotMatch(run.stderr, /SECRETBYTES/);
    }
  }
  assert.deepEqual(server.requests, [], 'nothing was fetched');
});

test('--crawler-max-price is offered only by the commands that request pages', async () => {
  for (const command of ['usage', 'meta', 'mcp']) {
    const help = await runCli([command, '--help']);
    assert.match(help.stdout, /--crawler-max-price/, command);
  }
  for (const command of ['check', 'lint', 'fetch', 'agents', 'diff', 'test']) {
    const help = await runCli([command, '--help']);
    assert.doesNotMatch(help.stdout, /--crawler-max-price/, command);
    assert.match(help.stdout, /--web-bot-auth-key/, command);
  }
  const refused = await runCli([
    'check',
    '--agent',
    'a',
    '--crawler-max-price',
    'USD 0.01',
    'https://example.invalid/',
  ]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /unknown option '--crawler-max-price'/);
});
