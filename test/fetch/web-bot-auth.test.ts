/**
 * Web Bot Auth (issue 31): every request repkit makes or guards carries an HTTP Message
 * Signature the receiving site verifies, with `web-bot-auth`'s own verifier and the public
 * half of the key: robots.txt, tdmrep.json, pages (usage), each redirect hop for the host it
 * goes to, requests through `robotsFetch`, and pages a Crawlee crawler sends.
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CheerioCrawler, Configuration, log } from 'crawlee';
import { withRepkitRobots } from '../../src/crawlee/index.ts';
import { checkWebBotAuth, RobotsClient, type RobotsClientOptions } from '../../src/fetch/index.ts';
import { guardPage, robotsFetch, robotsInterceptor } from '../../src/guards/index.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { Agent, request as undiciRequest } from 'undici';
import { httpServer, type RecordedRequest, type TestServer } from '../helpers/servers.ts';
import { TEST_KEY, TEST_PUBLIC_KEY, verifyRequest } from '../helpers/web-bot-auth.ts';

log.setLevel(log.LEVELS.OFF);

const PRIVATE_KEY = TEST_KEY;
/** Another key: a signature made with it must not verify as ours. */
const OTHER_PUBLIC_KEY = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
};
const AGENT = 'https://bot.example/.well-known/http-message-signatures-directory';

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

async function site(handler?: Parameters<typeof httpServer>[0]): Promise<TestServer> {
  const server = await httpServer(
    handler ??
      ((req, res) => {
        if (req.url === '/robots.txt') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          return void res.end('User-agent: *\nDisallow: /private\n');
        }
        if (req.url?.startsWith('/.well-known/')) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>hi</body></html>');
      }),
  );
  closing.push(server);
  return server;
}

function client(options: Partial<RobotsClientOptions> = {}): RobotsClient {
  const made = new RobotsClient({
    userAgent: 'ExampleBot/1.0',
    allowAddress: () => true,
    webBotAuth: { key: PRIVATE_KEY, signatureAgent: AGENT },
    ...options,
  });
  closing.push(made);
  return made;
}

/** Whether a request as the site received it verifies (see `verifyRequest`). */
async function verifies(
  request: RecordedRequest,
  key: JsonWebKey = TEST_PUBLIC_KEY,
): Promise<{ ok: boolean; error?: string }> {
  try {
    await verifyRequest(request, key);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

test('robots.txt, tdmrep.json and the page are each signed; the site verifies them', async () => {
  const server = await site();
  await client().usage(`${server.origin}/article`);
  const paths = server.requests.map((r) => r.path).sort();
  assert.deepEqual(paths, ['/.well-known/tdmrep.json', '/article', '/robots.txt']);
  for (const request of server.requests) {
    assert.deepEqual(await verifies(request), { ok: true }, request.path);
    // The draft's Dictionary form: the directory's origin, keyed to the signature's label.
    assert.equal(request.headers['signature-agent'], 'sig1="https://bot.example"');
    const input = String(request.headers['signature-input']);
    assert.match(input, /^sig1=\("@authority" "signature-agent";key="sig1"\);/);
    assert.match(input, /;tag="web-bot-auth"/);
    assert.match(input, /;alg="ed25519"/);
    assert.match(input, /;created=\d+[;]/);
    assert.match(input, /;expires=\d+[;]/);
    assert.match(input, /;nonce="[A-Za-z0-9+/=]+"/);
    assert.match(input, /;keyid="[A-Za-z0-9_-]{43}"/);
    // Not any key's signature: the other key's verifier refuses it.
    assert.equal((await verifies(request, OTHER_PUBLIC_KEY)).ok, false);
  }
  // Each signature is its own (a nonce each).
  const signatures = new Set(server.requests.map((r) => r.headers['signature']));
  assert.equal(signatures.size, server.requests.length);
});

test('a redirect hop is signed for the host it goes to', async () => {
  const target = await site();
  const start = await site((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(301, { location: `${target.origin}/robots.txt` });
      return void res.end();
    }
    res.writeHead(404).end();
  });
  await client().check(`${start.origin}/page`);
  const [first] = start.requests;
  const [hop] = target.requests;
  assert.ok(first && hop);
  assert.deepEqual(await verifies(first), { ok: true });
  assert.deepEqual(await verifies(hop), { ok: true });
  // The first hop's signature does not verify for the second host.
  const replayed = {
    ...hop,
    headers: {
      ...hop.headers,
      signature: first.headers['signature'],
      'signature-input': first.headers['signature-input'],
    },
  };
  assert.equal((await verifies(replayed)).ok, false);
});

test('the price offer is covered by the signature', async () => {
  const server = await site();
  await client({ crawlerMaxPrice: 'USD 0.02' }).usage(`${server.origin}/article`);
  const page = server.requests.find((r) => r.path === '/article')!;
  assert.equal(page.headers['crawler-max-price'], 'USD 0.02');
  assert.match(
    String(page.headers['signature-input']),
    /^sig1=\("@authority" "signature-agent";key="sig1" "crawler-max-price"\);/,
  );
  assert.deepEqual(await verifies(page), { ok: true });
  // Changing the offer breaks the signature.
  const raised = { ...page, headers: { ...page.headers, 'crawler-max-price': 'USD 9.00' } };
  assert.equal((await verifies(raised)).ok, false);
});

test('a key file is read; a key that cannot be read fails the fetch (never unsigned)', async () => {
  const file = join(tmpdir(), `repkit-wba-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(PRIVATE_KEY));
  const server = await site();
  const fromFile = client({ webBotAuth: { key: file } });
  assert.equal((await fromFile.check(`${server.origin}/page`)).allowed, true);
  assert.deepEqual(await verifies(server.requests[0]!), { ok: true });
  assert.equal(server.requests[0]!.headers['signature-agent'], undefined);

  const missing = await site();
  const nowhere = join(tmpdir(), 'repkit-no-such-key.json');
  const broken = client({ webBotAuth: { key: nowhere } });
  const result = await broken.check(`${missing.origin}/page`);
  assert.equal(result.allowed, false);
  assert.equal(result.reason, 'robots-txt-unreachable');
  assert.match(result.error ?? '', /cannot sign requests/);
  assert.deepEqual(missing.requests, []);
  assert.throws(() => client({ webBotAuth: { key: { kty: 'RSA' } } }), /webBotAuth\.key.*Ed25519/);
  // checkWebBotAuth says why, for the start-up.
  await assert.rejects(
    checkWebBotAuth({ key: nowhere }),
    /the file .* cannot be read: no such file/,
  );
  // A file that never ends (given by mistake) is refused after 64 KiB, not read until memory
  // runs out; a directory cannot be read.
  if (existsSync('/dev/zero')) {
    await assert.rejects(
      checkWebBotAuth({ key: '/dev/zero' }),
      /webBotAuth\.key: the file \/dev\/zero is over 64 KiB: no JWK/,
    );
  }
  await assert.rejects(checkWebBotAuth({ key: tmpdir() }), /cannot be read \(EISDIR\)/);
});

test("a key file that is no JWK: the fetch's error names neither the file nor its content; checkWebBotAuth says what is wrong without quoting it", async () => {
  const secret = join(tmpdir(), `repkit-wba-secret-${process.pid}.txt`);
  writeFileSync(secret, 'hunter2-not-a-key-TOPSECRET');
  const server = await site();
  const result = await client({ webBotAuth: { key: secret } }).check(`${server.origin}/page`);
  assert.equal(result.allowed, false);
  for (const leaked of ['hunter2', 'TOPSECRET', secret, 'repkit-wba-secret']) {
    assert.ok(!JSON.stringify(result).includes(leaked), `${leaked} in ${JSON.stringify(result)}`);
  }
  await assert.rejects(checkWebBotAuth({ key: secret }), (error: Error) => {
    assert.match(error.message, /is not JSON \(a JWK is\)/);
    assert.ok(!error.message.includes('hunter2'), error.message);
    return true;
  });
  const rsa = join(tmpdir(), `repkit-wba-rsa-${process.pid}.json`);
  writeFileSync(rsa, JSON.stringify({ kty: 'RSA', n: 'x', e: 'AQAB' }));
  await assert.rejects(checkWebBotAuth({ key: rsa }), /Ed25519 private key as a JWK/);
  await checkWebBotAuth({ key: PRIVATE_KEY });
});

test('robotsFetch signs the requests it lets through', async () => {
  const server = await site();
  const guarded = robotsFetch(client());
  const response = await guarded(`${server.origin}/page`);
  assert.equal(response.status, 200);
  const page = server.requests.find((r) => r.path === '/page')!;
  assert.deepEqual(await verifies(page), { ok: true });
});

test('a Crawlee crawler with the client signs the pages it sends', async () => {
  const server = await site();
  const signing = client();
  const Crawler = withRepkitRobots(CheerioCrawler, {
    userAgent: 'ExampleBot/1.0',
    client: signing,
  });
  const crawler = new Crawler(
    { respectRobotsTxtFile: true, requestHandler: async () => {} },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  await crawler.run([`${server.origin}/a`, `${server.origin}/private/b`]);
  const paths = server.requests.map((r) => r.path).sort();
  assert.deepEqual(paths, ['/a', '/robots.txt']);
  for (const request of server.requests) {
    assert.deepEqual(await verifies(request), { ok: true }, request.path);
  }
});

test('robotsInterceptor signs what its dispatcher sends, headers given kept', async () => {
  const server = await site();
  const dispatcher = new Agent().compose(robotsInterceptor(client()));
  closing.push({ close: () => dispatcher.close() });
  const response = await undiciRequest(`${server.origin}/page`, {
    dispatcher,
    headers: { 'x-trace': 'abc' },
  });
  await response.body.text();
  const page = server.requests.find((r) => r.path === '/page')!;
  assert.equal(page.headers['x-trace'], 'abc');
  assert.deepEqual(await verifies(page), { ok: true });
});

test("guardPage signs the browser's navigations", async () => {
  const server = await site();
  const browser = await launchChromium();
  closing.push(browser);
  const page = await browser.newPage();
  const guard = await guardPage(page, client());
  await guard.goto(`${server.origin}/page`);
  const navigation = server.requests.find((r) => r.path === '/page')!;
  assert.deepEqual(await verifies(navigation), { ok: true });
});
