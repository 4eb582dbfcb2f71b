/**
 * Loopback sites whose robots.txt (or page) is answered by what stands at the 2026 edge: a
 * Cloudflare-style challenge, an Anubis-style 202 page, a page served for the file, a pay per
 * crawl 402 with its price, an x402 demand. Each answer is built as those services send
 * theirs (status, headers, the marks in the body), not from repkit's own lists.
 */
import type { ServerResponse } from 'node:http';
import { httpServer, type TestServer } from './servers.ts';

export type EdgeKind =
  | 'cloudflare'
  | 'cloudflare-200'
  | 'cloudflare-503'
  | 'anubis'
  | 'html'
  | 'pay-per-crawl'
  | 'x402'
  | 'payment-auth';

/**
 * A Payment authentication challenge as draft-httpauth-payment-01's example writes it (its
 * `request` is the draft's own: `{"amount":"1000","currency":"USD","recipient":"acct_123"}`),
 * after a Bearer challenge the same response also carries.
 */
export const PAYMENT_CHALLENGE =
  'Bearer realm="api.example.com", Payment id="x7Tg2pLqR9mKvNwY3hBcZa", realm="api.example.com", ' +
  'method="example", intent="charge", expires="2025-01-15T12:05:00Z", ' +
  'request="eyJhbW91bnQiOiIxMDAwIiwiY3VycmVuY3kiOiJVU0QiLCJyZWNpcGllbnQiOiJhY2N0XzEyMyJ9"';

/** The price `PAYMENT_CHALLENGE` names, as `edge.price` reads it. */
export const PAYMENT_CHALLENGE_PRICE = {
  scheme: 'payment',
  amount: '1000',
  currency: 'USD',
  method: 'example',
  intent: 'charge',
  realm: 'api.example.com',
  expires: '2025-01-15T12:05:00Z',
};

const CLOUDFLARE_PAGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta name="robots" content="noindex,nofollow">
</head><body><div class="main-wrapper" role="main"><div class="main-content">
<noscript><div class="h2">Enable JavaScript and cookies to continue</div></noscript></div></div>
<script>(function(){window._cf_chl_opt={cvId: '3',cZone: 'example.com',cType: 'managed'};
var a=document.createElement('script');a.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8f';
document.getElementsByTagName('head')[0].appendChild(a);}());</script></body></html>`;

const ANUBIS_PAGE = `<!doctype html><html lang="en"><head><title>Making sure you&#39;re not a bot!</title>
<link rel="stylesheet" href="/.within.website/x/xess/xess.min.css">
<script id="anubis_version" type="application/json">"v1.21.3"</script>
<script id="anubis_challenge" type="application/json">{"rules":{"difficulty":4},"challenge":"6f0b"}</script>
</head><body id="top"><main><h1 id="title" class="centered-div">Making sure you&#39;re not a bot!</h1>
<script async type="module" src="/.within.website/x/cmd/anubis/static/js/main.mjs"></script></main></body></html>`;

const PLAIN_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Shop</title></head><body><h1>Welcome</h1></body></html>\n';

/** An x402 version 1 demand, as its HTTP transport sends it in the body. */
export const X402_BODY = JSON.stringify({
  x402Version: 1,
  accepts: [
    {
      scheme: 'exact',
      network: 'base-sepolia',
      maxAmountRequired: '10000',
      resource: 'http://example.test/robots.txt',
      description: 'Access',
      mimeType: 'text/plain',
      payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      maxTimeoutSeconds: 60,
      asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    },
  ],
  error: 'X-PAYMENT header is required',
});

/** Answers as `kind` does. */
export function answerAs(kind: EdgeKind, res: ServerResponse): void {
  const html = { 'content-type': 'text/html; charset=UTF-8' };
  switch (kind) {
    case 'cloudflare':
      res.writeHead(403, { ...html, 'cf-mitigated': 'challenge', server: 'cloudflare' });
      return void res.end(CLOUDFLARE_PAGE);
    case 'cloudflare-200':
      // An interstitial served with 200 and no header: only the page's marks say what it is.
      res.writeHead(200, html);
      return void res.end(CLOUDFLARE_PAGE);
    case 'cloudflare-503':
      res.writeHead(503, { ...html, server: 'cloudflare' });
      return void res.end(CLOUDFLARE_PAGE);
    case 'anubis':
      res.writeHead(202, html);
      return void res.end(ANUBIS_PAGE);
    case 'html':
      res.writeHead(200, html);
      return void res.end(PLAIN_PAGE);
    case 'pay-per-crawl':
      res.writeHead(402, { 'crawler-price': 'USD 0.01' });
      return void res.end();
    case 'x402':
      res.writeHead(402, { 'content-type': 'application/json' });
      return void res.end(X402_BODY);
    case 'payment-auth':
      res.writeHead(402, { 'cache-control': 'no-store', 'www-authenticate': PAYMENT_CHALLENGE });
      return void res.end();
  }
}

/**
 * A site whose `/robots.txt` is answered as `kind`; other paths are pages (`200`, or as
 * `pages` says) and `/.well-known/tdmrep.json` is 404.
 */
export function edgeSite(
  robots: EdgeKind | string,
  pages?: (path: string, res: ServerResponse, headers: Record<string, unknown>) => boolean,
): Promise<TestServer> {
  return httpServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      if (isKind(robots)) return answerAs(robots, res);
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(robots);
    }
    if (pages?.(path, res, req.headers)) return;
    if (path.startsWith('/.well-known/')) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><head><title>Page</title></head><body>Hi</body></html>');
  });
}

function isKind(value: string): value is EdgeKind {
  return [
    'cloudflare',
    'cloudflare-200',
    'cloudflare-503',
    'anubis',
    'html',
    'pay-per-crawl',
    'x402',
    'payment-auth',
  ].includes(value);
}
