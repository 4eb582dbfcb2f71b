/**
 * `classifyEdge`: what stood in a site's place (issue 31), read from status, headers and the
 * body's head; and the prices a payment demand names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyEdge, type Edge } from '../../src/core/index.ts';
import { describeEdge, parsePriceHeader } from '../../src/core/internal.ts';
import { parseChallenges } from '../../src/core/edge/payment-auth.ts';
import { PAYMENT_CHALLENGE, PAYMENT_CHALLENGE_PRICE } from '../helpers/edge-sites.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const priceOf = (edge: Edge | undefined) =>
  edge?.kind === 'payment-required' ? edge.price : undefined;
const html = { 'content-type': 'text/html; charset=utf-8' };

test('a wall is known by its header at any status, with the header as evidence', () => {
  for (const status of [200, 403, 503]) {
    const edge = classifyEdge({ status, headers: { 'cf-mitigated': 'challenge' } });
    assert.deepEqual(edge, {
      kind: 'challenge',
      evidence: [`status ${status}`, 'cf-mitigated: challenge'],
      vendor: 'cloudflare',
    });
  }
  assert.equal(
    classifyEdge({ status: 403, headers: { 'x-amzn-waf-action': 'captcha' } })?.kind,
    'challenge',
  );
  // Another value of the header is no challenge.
  assert.equal(classifyEdge({ status: 200, headers: { 'cf-mitigated': 'none' } }), undefined);
});

test("a wall is known by its page's marks at 2xx, 403, 429 and 503, not at 404", () => {
  const page = bytes(
    '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/x.js"></script></body></html>',
  );
  for (const status of [200, 403, 429, 503]) {
    const edge = classifyEdge({ status, headers: html, body: page });
    assert.equal(edge?.kind, 'challenge', `status ${status}`);
    assert.ok(edge?.evidence.some((e) => e.startsWith('body: ')));
  }
  assert.equal(classifyEdge({ status: 404, headers: html, body: page }), undefined);
  // The same words in a robots.txt comment are no page.
  const robots = bytes(
    '# Just a moment... /cdn-cgi/challenge-platform/\nUser-agent: *\nDisallow:\n',
  );
  assert.equal(classifyEdge({ status: 200, headers: {}, body: robots }), undefined);
});

test('an HTML page with 202 is a challenge (Anubis); a plain 2xx page is `html`', () => {
  const page = bytes('<!doctype html><html><body><p>One moment</p></body></html>');
  assert.deepEqual(classifyEdge({ status: 202, headers: html, body: page }), {
    kind: 'challenge',
    evidence: ['status 202', 'body: an HTML page'],
  });
  assert.deepEqual(classifyEdge({ status: 200, headers: html, body: page }), {
    kind: 'html',
    evidence: ['status 200', 'content-type: text/html; charset=utf-8'],
  });
  // Labelled text/plain, still a page by its first bytes.
  assert.equal(classifyEdge({ status: 200, headers: {}, body: page })?.kind, 'html');
  // A plain 403 page is the site's own answer.
  assert.equal(classifyEdge({ status: 403, headers: html, body: page }), undefined);
});

test('a 402 is a payment demand, with the price of pay per crawl or x402 when named', () => {
  assert.deepEqual(classifyEdge({ status: 402, headers: { 'crawler-price': 'USD 0.01' } }), {
    kind: 'payment-required',
    evidence: ['status 402', 'crawler-price: USD 0.01'],
    price: { scheme: 'crawler-price', currency: 'USD', amount: '0.01' },
  });
  const v1 = JSON.stringify({
    x402Version: 1,
    accepts: [{ scheme: 'exact', network: 'base', maxAmountRequired: '10000', asset: '0xA' }],
  });
  assert.deepEqual(priceOf(classifyEdge({ status: 402, headers: {}, body: bytes(v1) })), {
    scheme: 'x402',
    amount: '10000',
    asset: '0xA',
    network: 'base',
  });
  const v2 = btoa(
    JSON.stringify({ x402Version: 2, accepts: [{ amount: '3000000', network: 'eip155:8453' }] }),
  );
  const edge = classifyEdge({ status: 402, headers: { 'payment-required': v2 } });
  assert.deepEqual(priceOf(edge), { scheme: 'x402', amount: '3000000', network: 'eip155:8453' });
  assert.deepEqual(edge?.evidence, ['status 402', 'PAYMENT-REQUIRED header (x402)']);
  // No price named: still a demand; a broken price is not read.
  assert.deepEqual(classifyEdge({ status: 402, headers: { 'crawler-price': 'cheap' } }), {
    kind: 'payment-required',
    evidence: ['status 402'],
  });
  assert.match(describeEdge(edge!), /^payment required 3000000 \(x402\)/);
});

test("the Payment authentication scheme: a 402's WWW-Authenticate challenge read as the draft defines it", () => {
  const edge = classifyEdge({
    status: 402,
    headers: { 'www-authenticate': PAYMENT_CHALLENGE },
  });
  assert.deepEqual(edge, {
    kind: 'payment-required',
    evidence: ['status 402', 'WWW-Authenticate: Payment (method example, intent charge)'],
    price: PAYMENT_CHALLENGE_PRICE,
  });
  assert.match(
    describeEdge(edge!),
    /^payment required 1000 base units of USD by example \(Payment charge\)/,
  );
  // Tokens unquoted, escapes in quoted strings, other schemes and token68 around it.
  const request = btoa(JSON.stringify({ amount: '5000', currency: 'usd' })).replace(/=+$/, '');
  assert.deepEqual(
    parseChallenges(
      `Basic YWxhZGRpbjpvcGVuc2VzYW1l==, Payment id=abc, method=stripe, intent=charge, realm="a \\"b\\"", request=${request}`,
    ).map((c) => [c.scheme, Object.fromEntries(c.params)]),
    [
      ['basic', {}],
      ['payment', { id: 'abc', method: 'stripe', intent: 'charge', realm: 'a "b"', request }],
    ],
  );
  // The draft: a challenge without an id is rejected; a request without amount is no price.
  const noId = PAYMENT_CHALLENGE.replace('id="x7Tg2pLqR9mKvNwY3hBcZa", ', '');
  assert.equal(
    priceOf(classifyEdge({ status: 402, headers: { 'www-authenticate': noId } })),
    undefined,
  );
  const noAmount = `Payment id="1", method="m", intent="charge", request="${btoa('{"currency":"usd"}')}"`;
  assert.equal(
    priceOf(classifyEdge({ status: 402, headers: { 'www-authenticate': noAmount } })),
    undefined,
  );
  // Hostile values: unterminated, huge, not base64: no crash, no price, still a demand.
  for (const bad of [
    'Payment id="x, method=',
    'Payment ' + 'a=b, '.repeat(50_000),
    'Payment id=1, method=m, intent=i, request=%%%',
  ]) {
    assert.equal(
      classifyEdge({ status: 402, headers: { 'www-authenticate': bad } })?.kind,
      'payment-required',
    );
  }
});

test('prices: read as a currency and a decimal', () => {
  assert.deepEqual(parsePriceHeader(' usd 0.01 '), { currency: 'USD', amount: '0.01' });
  for (const bad of ['', 'USD', '0.01 USD', 'USD -1', 'USD 1e3', 'USD 0.01 x']) {
    assert.equal(parsePriceHeader(bad), undefined, bad);
  }
});

test('the body read is bounded: a mark past the first 16 KiB is not looked for', () => {
  const late = bytes(`<html><body>${' '.repeat(20_000)}_cf_chl_opt</body></html>`);
  assert.equal(classifyEdge({ status: 200, headers: html, body: late })?.kind, 'html');
});

/** A single-page app's index.html, as servers answer `/robots.txt` with it when there is none. */
function spaPage(extra: string): Uint8Array {
  return bytes(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme</title>` +
      `<meta name="robots" content="noindex">${extra}</head>` +
      `<body><div id="root"></div><script type="module" src="/assets/index-3f2a.js"></script></body></html>`,
  );
}

test('a page that merely embeds a CAPTCHA widget or says "verify you are human" is html, not a wall', () => {
  for (const extra of [
    '<script src="https://www.google.com/recaptcha/api.js" async defer></script>',
    '<script src="https://js.hcaptcha.com/1/api.js" async defer></script>',
    '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" defer></script>',
    '<p>Please verify you are human before you send the form.</p>',
    '<p>Checking your browser before accessing the shop is done by our partner.</p>',
    // The script Cloudflare's bot management adds to every page it screens.
    '<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>',
  ]) {
    for (const status of [200, 403]) {
      const edge = classifyEdge({ status, headers: html, body: spaPage(extra) });
      assert.equal(edge?.kind === 'challenge', false, `${status}: ${extra}`);
    }
    assert.equal(classifyEdge({ status: 200, headers: html, body: spaPage(extra) })?.kind, 'html');
  }
});

test('a robots.txt served as text/html whose first line is an HTML comment is a robots.txt', () => {
  const file = bytes(
    '<!-- robots.txt for www.example.com -->\nUser-agent: *\nDisallow: /cdn-cgi/challenge-platform/\nDisallow: /recaptcha/\n',
  );
  for (const status of [200, 202]) {
    assert.equal(classifyEdge({ status, headers: html, body: file }), undefined, `${status}`);
  }
});
