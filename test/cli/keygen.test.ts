/**
 * `repkit keygen`: a Web Bot Auth key that repkit signs with, and the key directory a site
 * verifies those signatures with (checked with web-bot-auth's own verifier).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { jwkToKeyID } from 'web-bot-auth';
import { RobotsClient } from '../../src/fetch/index.ts';
import { runCli } from '../helpers/cli.ts';
import { httpServer } from '../helpers/servers.ts';
import { verifyRequest } from '../helpers/web-bot-auth.ts';

test('keygen writes an owner-only Ed25519 key and the directory that verifies its signatures', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'repkit-keygen-'));
  const keyFile = join(dir, 'bot-key.jwk');
  const directoryFile = join(dir, 'directory.json');
  const made = await runCli(['keygen', '--out', keyFile, '--directory', directoryFile]);
  assert.equal(made.code, 0, made.stderr);
  assert.equal(statSync(keyFile).mode & 0o777, 0o600);
  assert.match(made.stderr, /\/\.well-known\/http-message-signatures-directory/);
  const key = JSON.parse(readFileSync(keyFile, 'utf8')) as JsonWebKey & { kid: string };
  const directory = JSON.parse(readFileSync(directoryFile, 'utf8')) as {
    keys: (JsonWebKey & { kid: string })[];
  };
  assert.equal(key.kty, 'OKP');
  assert.equal(key.crv, 'Ed25519');
  assert.equal(directory.keys.length, 1);
  const published = directory.keys[0]!;
  assert.equal(published.x, key.x);
  assert.equal('d' in published, false, 'the directory holds no private part');
  // The key id is the JWK thumbprint, as web-bot-auth computes it.
  const thumbprint = await jwkToKeyID(
    published,
    (bytes) => crypto.subtle.digest('SHA-256', bytes),
    (digest) => Buffer.from(digest).toString('base64url'),
  );
  assert.equal(published.kid, thumbprint);
  assert.ok(!made.stdout.includes(key.d!) && !made.stderr.includes(key.d!));

  // repkit signs with it; the published key verifies what the site received.
  const site = await httpServer((req, res) => {
    res.writeHead(req.url === '/robots.txt' ? 200 : 404).end('User-agent: *\nAllow: /\n');
  });
  const client = new RobotsClient({
    userAgent: 'ExampleBot/1.0',
    allowAddress: () => true,
    webBotAuth: { key: keyFile },
  });
  t.after(async () => {
    await client.close();
    await site.close();
  });
  assert.equal((await client.check(`${site.origin}/page`)).allowed, true);
  const received = site.requests.find((r) => r.path === '/robots.txt')!;
  assert.match(String(received.headers['signature-input']), new RegExp(`keyid="${published.kid}"`));
  await verifyRequest(received, published);

  // A key is never overwritten by accident.
  const again = await runCli(['keygen', '--out', keyFile]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /exists: not overwritten \(give --force/);
  assert.equal(JSON.parse(readFileSync(keyFile, 'utf8')).d, key.d);
});

test('keygen writes nothing where one of its places cannot be written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'repkit-keygen-'));
  const keyFile = join(dir, 'k.jwk');
  // A mistyped --directory: said before the key is written (it left a key behind, whose
  // directory was never written, and which a second run would not replace).
  const mistyped = await runCli([
    'keygen',
    '--out',
    keyFile,
    '--directory',
    join(dir, 'no', 'd.json'),
  ]);
  assert.deepEqual(
    [mistyped.code, mistyped.stderr.trim()],
    [2, `repkit: cannot write ${join(dir, 'no', 'd.json')}: no folder ${join(dir, 'no')}`],
  );
  assert.equal(existsSync(keyFile), false);
  const folder = await runCli(['keygen', '--out', dir]);
  assert.deepEqual(
    [folder.code, folder.stderr.trim()],
    [2, `repkit: cannot write ${dir}: is a directory`],
  );
  // A directory that fails only when written (procfs refuses a new name): the key made is
  // not kept either.
  if (existsSync('/proc/self')) {
    const refused = await runCli([
      'keygen',
      '--out',
      keyFile,
      '--directory',
      '/proc/repkit-d.json',
    ]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^repkit: cannot write \/proc\/repkit-d\.json: /);
    assert.equal(existsSync(keyFile), false);
  }
});

test('keygen without --directory prints the directory, and only it, on stdout', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'repkit-keygen-'));
  const made = await runCli(['keygen', '--out', join(dir, 'k.jwk')]);
  assert.equal(made.code, 0, made.stderr);
  const printed = JSON.parse(made.stdout) as { keys: JsonWebKey[] };
  assert.equal(printed.keys[0]!.kty, 'OKP');
});
