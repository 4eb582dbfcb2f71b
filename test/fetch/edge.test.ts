/**
 * The 2026 edge at the client (issue 31): a wall answering for robots.txt never becomes
 * "everything allowed" by default; `challenge: 'literal'` reads it as Google does; every
 * answer carries the `edge` with its evidence; a page's 402 is reported with its price, and
 * only a crawler that set `crawlerMaxPrice` offers to pay.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { MemoryStore } from '../../src/cache/index.ts';
import { RobotsClient, type RobotsClientOptions } from '../../src/fetch/index.ts';
import { robotsFetch, isDeferredError } from '../../src/guards/index.ts';
import {
  answerAs,
  edgeSite,
  PAYMENT_CHALLENGE_PRICE,
  type EdgeKind,
} from '../helpers/edge-sites.ts';
import { httpServer, TestClock } from '../helpers/servers.ts';

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

async function site(robots: EdgeKind | string, pages?: Parameters<typeof edgeSite>[1]) {
  const server = await edgeSite(robots, pages);
  closing.push(server);
  return server;
}

function client(options: Partial<RobotsClientOptions> = {}): RobotsClient {
  const made = new RobotsClient({
    userAgent: 'ExampleBot/1.0',
    allowAddress: () => true,
    ...options,
  });
  closing.push(made);
  return made;
}

const WALLS: { kind: EdgeKind; status: number; evidence: string; literallyAllowed: boolean }[] = [
  { kind: 'cloudflare', status: 403, evidence: 'cf-mitigated: challenge', literallyAllowed: true },
  {
    kind: 'cloudflare-200',
    status: 200,
    evidence: 'body: _cf_chl_opt',
    literallyAllowed: true,
  },
  { kind: 'anubis', status: 202, evidence: 'body: id="anubis_challenge"', literallyAllowed: true },
  // Google reads a 503 as unreachable: disallowed either way.
  { kind: 'cloudflare-503', status: 503, evidence: 'body: ', literallyAllowed: false },
  {
    kind: 'pay-per-crawl',
    status: 402,
    evidence: 'crawler-price: USD 0.01',
    literallyAllowed: true,
  },
  { kind: 'x402', status: 402, evidence: 'x402 JSON body', literallyAllowed: true },
];

for (const wall of WALLS) {
  test(`${wall.kind}: by default the robots.txt counts as unreachable, never as allowed`, async () => {
    const server = await site(wall.kind);
    const result = await client().check(`${server.origin}/page`);
    assert.equal(result.allowed, false);
    assert.equal(result.reason, 'robots-txt-challenge');
    assert.equal(result.status, wall.status);
    assert.ok(result.edge, 'the edge is carried');
    assert.equal(result.edge.kind, wall.status === 402 ? 'payment-required' : 'challenge');
    assert.ok(
      result.edge.evidence.some((e) => e.startsWith(wall.evidence)),
      JSON.stringify(result.edge.evidence),
    );
    assert.match(result.error ?? '', wall.status === 402 ? /^payment required/ : /^a bot wall/);
  });

  test(`${wall.kind}: challenge 'literal' reads it as Google does, and says so`, async () => {
    const server = await site(wall.kind);
    const result = await client({ challenge: 'literal' }).check(`${server.origin}/page`);
    assert.equal(result.allowed, wall.literallyAllowed);
    assert.equal(result.reason, 'robots-txt-challenge-literal');
    assert.equal(result.edge?.kind, wall.status === 402 ? 'payment-required' : 'challenge');
  });
}

test('a payment demand for robots.txt carries its price: pay per crawl and x402', async () => {
  const paid = await client().check(`${(await site('pay-per-crawl')).origin}/`);
  assert.deepEqual(paid.edge, {
    kind: 'payment-required',
    evidence: ['status 402', 'crawler-price: USD 0.01'],
    price: { scheme: 'crawler-price', currency: 'USD', amount: '0.01' },
  });
  const x402 = await client().check(`${(await site('x402')).origin}/`);
  assert.equal(x402.edge?.kind, 'payment-required');
  assert.deepEqual(x402.edge?.kind === 'payment-required' && x402.edge.price, {
    scheme: 'x402',
    amount: '10000',
    asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    network: 'base-sepolia',
    payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  });
});

test('a plain page served for robots.txt is read as Google reads it, with the edge `html`', async () => {
  const server = await site('html');
  const result = await client().check(`${server.origin}/page`);
  assert.equal(result.allowed, true);
  assert.equal(result.reason, 'no-matching-group');
  assert.equal(result.notRobotsTxt, 'html-content');
  assert.deepEqual(result.edge, {
    kind: 'html',
    evidence: ['status 200', 'content-type: text/html; charset=UTF-8'],
  });
});

test('a wall lasting past the 30-day window still disallows (a 5xx run would not)', async () => {
  const clock = new TestClock(Date.now());
  const server = await site('cloudflare');
  const walled = client({ now: clock.now, store: new MemoryStore({ now: clock.now }) });
  const url = `${server.origin}/page`;
  assert.equal((await walled.check(url)).reason, 'robots-txt-challenge');
  for (let day = 0; day < 32; day++) {
    clock.advance(24 * 60 * 60 * 1000);
    await walled.check(url);
  }
  const late = await walled.check(url);
  assert.equal(late.allowed, false);
  assert.equal(late.reason, 'robots-txt-challenge');
});

test('a wall after a good copy: the copy decides (stale), and the answer names the wall', async () => {
  const clock = new TestClock(Date.now());
  let walled = false;
  const turning = await httpServer((req, res) => {
    if (req.url !== '/robots.txt') return void res.writeHead(404).end();
    if (walled) return answerAs('cloudflare', res);
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60' });
    res.end('User-agent: *\nDisallow: /private\n');
  });
  closing.push(turning);
  const robots = client({ now: clock.now, store: new MemoryStore({ now: clock.now }) });
  assert.equal((await robots.check(`${turning.origin}/open`)).allowed, true);
  walled = true;
  clock.advance(120_000);
  const open = await robots.check(`${turning.origin}/open`);
  assert.equal(open.source, 'stale');
  assert.equal(open.allowed, true);
  assert.equal(open.edge?.kind, 'challenge');
  const closed = await robots.check(`${turning.origin}/private/x`);
  assert.equal(closed.allowed, false);
  assert.equal(closed.line, 2);
});

test('the guard defers a request to a walled site and never sends it', async () => {
  const server = await site('cloudflare');
  const sent: string[] = [];
  const guarded = robotsFetch(client(), {
    fetch: async (input: string | URL | Request) => {
      sent.push(String(input));
      return new Response('page');
    },
  });
  await assert.rejects(guarded(`${server.origin}/page`), (error: unknown) => {
    assert.ok(isDeferredError(error));
    assert.match(String((error as Error).message), /bot wall/);
    assert.deepEqual((error as { edge?: unknown }).edge, {
      kind: 'challenge',
      evidence: ['status 403', 'cf-mitigated: challenge'],
      vendor: 'cloudflare',
    });
    return true;
  });
  assert.deepEqual(sent, []);
  assert.deepEqual(
    server.requests.map((r) => r.path),
    ['/robots.txt'],
  );
});

test('usage(): a page answering 402 is reported with its price; its rules are unknown', async () => {
  const server = await site('User-agent: *\nAllow: /\n', (path, res) => {
    if (path !== '/article') return false;
    answerAs('pay-per-crawl', res);
    return true;
  });
  const answer = await client().usage(`${server.origin}/article`);
  assert.equal(answer.fetch.may, true);
  assert.equal(answer.page?.status, 402);
  assert.deepEqual(answer.page?.edge, {
    kind: 'payment-required',
    evidence: ['status 402', 'crawler-price: USD 0.01'],
    price: { scheme: 'crawler-price', currency: 'USD', amount: '0.01' },
  });
  assert.equal(answer.index.may, false);
  assert.match(answer.index.why, /payment required USD 0\.01/);
  // Never pay by default: no price was offered.
  const page = server.requests.find((r) => r.path === '/article');
  assert.equal(page?.headers['crawler-max-price'], undefined);
});

test("usage(): a page answering 402 with a Payment authentication challenge is reported with the challenge's price", async () => {
  const server = await site('User-agent: *\nAllow: /\n', (path, res) => {
    if (path !== '/article') return false;
    answerAs('payment-auth', res);
    return true;
  });
  const answer = await client().usage(`${server.origin}/article`);
  assert.equal(answer.page?.status, 402);
  assert.deepEqual(
    answer.page?.edge?.kind === 'payment-required' && answer.page.edge.price,
    PAYMENT_CHALLENGE_PRICE,
  );
  assert.equal(answer.index.may, false);
  assert.match(answer.index.why, /payment required 1000 base units of USD by example/);
  // Its robots.txt answered so: unreachable for now (never "no robots.txt"), price kept.
  const walled = await site('payment-auth');
  const check = await client().check(`${walled.origin}/a`);
  assert.equal(check.allowed, false);
  assert.equal(check.edge?.kind === 'payment-required' && check.edge.price?.scheme, 'payment');
});

test('usage(): a challenge page says nothing of the page (its noindex is the wall’s)', async () => {
  const server = await site('User-agent: *\nAllow: /\n', (path, res) => {
    if (path !== '/article') return false;
    answerAs('cloudflare', res);
    return true;
  });
  const answer = await client().usage(`${server.origin}/article`);
  assert.equal(answer.page?.edge?.kind, 'challenge');
  assert.match(answer.index.why, /^not known: a bot wall answered \(cloudflare\)/);
  assert.equal(answer.robotsTxt.edge, undefined);
});

test('usage(): with crawlerMaxPrice the offer is sent and the charge reported', async () => {
  const server = await site('User-agent: *\nAllow: /\n', (path, res, headers) => {
    if (path !== '/article') return false;
    const offer = headers['crawler-max-price'];
    if (offer === 'USD 0.05') {
      res.writeHead(200, { 'content-type': 'text/html', 'crawler-charged': 'USD 0.01' });
      res.end('<!doctype html><html><head><meta name="robots" content="noai"></head></html>');
    } else answerAs('pay-per-crawl', res);
    return true;
  });
  const answer = await client({ crawlerMaxPrice: 'usd 0.05' }).usage(`${server.origin}/article`);
  assert.equal(answer.page?.status, 200);
  assert.deepEqual(answer.page?.charged, { currency: 'USD', amount: '0.01' });
  assert.equal(answer.page?.edge, undefined);
  // The offer goes with pages only: robots.txt is never paid for.
  const robots = server.requests.find((r) => r.path === '/robots.txt');
  assert.equal(robots?.headers['crawler-max-price'], undefined);
  assert.throws(() => client({ crawlerMaxPrice: '5 dollars' }), /crawlerMaxPrice.*as 'USD 0\.01'/);
  assert.throws(() => client({ challenge: 'ignore' as never }), /challenge/);
});

test('a 503 whose body trickles is still the 503 it is, with its Retry-After, not a timeout', async () => {
  const server = await httpServer((req, res) => {
    res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '3600' });
    res.write('<html>');
    const drip = setInterval(() => res.write(' '), 200);
    req.on('close', () => clearInterval(drip));
    res.on('close', () => clearInterval(drip));
  });
  closing.push(server);
  const clock = new TestClock(Date.now());
  // Read as a 503 (below), not the timeout a body read to its end would have come to.
  const result = await client({ timeoutMs: 5_000, now: clock.now }).check(`${server.origin}/a`);
  assert.deepEqual(
    [result.status, result.reason, result.error],
    [503, 'robots-txt-unreachable', 'HTTP 503'],
  );
  assert.equal(result.expiresAt - clock.now(), 3_600_000);
});

test("a single-page app answering /robots.txt with a page that embeds a CAPTCHA is read as Google reads it: no rules, and the page's own meta rules count", async () => {
  const page =
    '<!doctype html><html><head><title>Shop</title><meta name="robots" content="noindex">' +
    '<script src="https://www.google.com/recaptcha/api.js" async defer></script></head>' +
    '<body><div id="root"></div><form><p>Please verify you are human.</p></form></body></html>';
  const server = await httpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  closing.push(server);
  const made = client();
  const result = await made.check(`${server.origin}/products/1`);
  assert.equal(result.allowed, true);
  assert.equal(result.reason, 'no-matching-group');
  assert.equal(result.edge?.kind, 'html');
  const usage = await made.usage(`${server.origin}/products/1`);
  assert.equal(usage.fetch.may, true);
  assert.equal(usage.page?.edge, undefined);
  assert.equal(usage.index.may, false);
  assert.match(usage.index.why, /noindex/);
  assert.equal(usage.index.source?.kind, 'meta');
});
