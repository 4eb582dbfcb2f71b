/**
 * The Signature-Agent as draft-ietf-webbotauth-httpsig-protocol-01 writes it, held to the
 * draft's own Ed25519 test vectors (its Appendix, with RFC 9421's test key: Ed25519 is
 * deterministic, so the signature must be the draft's byte for byte), and the legacy String
 * form as an option, checked by an independent verifier on loopback.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import * as lib from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { InvalidOptionError, RobotsClient } from '../../src/fetch/index.ts';
import { signedHeaders } from '../../src/fetch/net/identity.ts';
import { signatureAgentOf } from '../../src/fetch/net/signature-agent.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';
import { TEST_KEY, verifyRequest } from '../helpers/web-bot-auth.ts';

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

const VECTOR = {
  url: 'https://example.com/',
  created: new Date(1735689600 * 1000),
  keyid: 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U',
};

test("the draft's Ed25519 vector, Dictionary form: the same Signature-Agent, Signature-Input and Signature", async () => {
  const agent = signatureAgentOf('https://signature-agent.test', { member: 'agent2' });
  const nonce =
    'n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==';
  const headers = await signedHeaders(lib, await signerFromJWK(TEST_KEY), {
    url: VECTOR.url,
    headers: {},
    agent,
    created: VECTOR.created,
    expires: new Date(4889289600 * 1000),
    label: 'sig2',
    nonce,
  });
  assert.equal(headers['signature-agent'], 'agent2="https://signature-agent.test"');
  assert.equal(
    headers['signature-input'],
    `sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="${VECTOR.keyid}";alg="ed25519";expires=4889289600;nonce="${nonce}";tag="web-bot-auth"`,
  );
  assert.equal(
    headers['signature'],
    'sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:',
  );
});

test("the draft's Ed25519 vector, legacy String form", async () => {
  const agent = signatureAgentOf('https://signature-agent.test', { form: 'string' });
  const nonce =
    'e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==';
  const headers = await signedHeaders(lib, await signerFromJWK(TEST_KEY), {
    url: VECTOR.url,
    headers: {},
    agent,
    created: VECTOR.created,
    expires: new Date(1735693200 * 1000),
    label: 'sig2',
    nonce,
  });
  assert.equal(headers['signature-agent'], '"https://signature-agent.test"');
  assert.equal(
    headers['signature'],
    'sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:',
  );
});

test('a member for each type: a directory is an origin; other paths need their type, sent as the parameter', () => {
  assert.equal(
    signatureAgentOf('https://bot.example/.well-known/http-message-signatures-directory').field,
    'sig1="https://bot.example"',
  );
  const jwks = signatureAgentOf('https://bot.example/keys.json', { type: 'jwks_uri' });
  assert.deepEqual(
    [jwks.field, jwks.covered],
    [
      'sig1="https://bot.example/keys.json";type=jwks_uri',
      '"https://bot.example/keys.json";type=jwks_uri',
    ],
  );
  assert.throws(() => signatureAgentOf('https://bot.example/keys.json'), InvalidOptionError);
  assert.throws(() => signatureAgentOf('ftp://bot.example/'), InvalidOptionError);
});

test('signatureAgentForm string: the legacy form on the wire, verified as legacy; the default is the Dictionary', async () => {
  const server: TestServer = await httpServer((req, res) => {
    res.writeHead(req.url === '/robots.txt' ? 200 : 404).end('User-agent: *\nAllow: /\n');
  });
  closing.push(server);
  for (const form of ['string', 'dictionary'] as const) {
    const client = new RobotsClient({
      userAgent: 'ExampleBot/1.0',
      allowAddress: () => true,
      webBotAuth: {
        key: TEST_KEY,
        signatureAgent: 'https://bot.example',
        signatureAgentForm: form,
      },
    });
    closing.push(client);
    await client.check(`${server.origin}/x`);
  }
  const [legacy, current] = server.requests;
  assert.equal(legacy!.headers['signature-agent'], '"https://bot.example"');
  assert.match(
    String(legacy!.headers['signature-input']),
    /^sig1=\("@authority" "signature-agent"\);/,
  );
  await verifyRequest(legacy!, undefined, { legacy: true });
  // A verifier of the current draft does not take the legacy member as covered.
  await assert.rejects(verifyRequest(legacy!), /not covered/);
  assert.equal(current!.headers['signature-agent'], 'sig1="https://bot.example"');
  await verifyRequest(current!);
  // A member swapped for another agent no longer verifies.
  const swapped = {
    ...current!,
    headers: { ...current!.headers, 'signature-agent': 'sig1="https://attacker.example"' },
  };
  await assert.rejects(verifyRequest(swapped), /does not verify/);
});
