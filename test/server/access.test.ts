/**
 * Who may use the service, and how much: a bearer token, the Host names it answers to, a
 * per-client rate limit, security headers; and what it must not tell or hand out (the
 * address a name resolves to, the body of a page a robots.txt redirects to).
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { LookupFunction } from 'node:net';
import { after, describe, test } from 'node:test';
import { startService, type RunningService } from '../../src/server/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

const running: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of running.splice(0)) await thing.close();
});

async function service(options: Parameters<typeof startService>[0]): Promise<RunningService> {
  const started = await startService({ port: 0, ...options });
  running.push(started);
  return started;
}

/** A GET with headers fetch() may not set (Host), from `localAddress`. */
function get(
  url: string,
  headers: Record<string, string> = {},
  localAddress?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest(url, { headers, ...(localAddress ? { localAddress } : {}) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

const TOKEN = 'a-token-of-some-length-0123456789';

describe('a bearer token', () => {
  test('every API route asks for it; /healthz, the tester page and the API description stay open', async () => {
    const s = await service({ access: { token: TOKEN } });
    const check = `${s.url}/v1/check?url=${encodeURIComponent('http://127.0.0.1:1/a')}`;
    const none = await get(check);
    assert.equal(none.status, 401);
    assert.match(String(none.headers['www-authenticate']), /^Bearer/);
    assert.equal(
      (await get(check, { authorization: 'Bearer wrong-token-0123456789abc' })).status,
      401,
    );
    assert.equal((await get(`${s.url}/metrics`)).status, 401);
    // What the API is, for a browser and a client generator; not what it answers.
    const described = await get(`${s.url}/openapi.json`);
    assert.equal(described.status, 200);
    assert.match(described.body, /"openapi"/);
    assert.equal((await get(`${s.url}/docs`)).status, 200);
    assert.equal((await get(`${s.url}/v1/robots?url=http://a.example/`)).status, 401);
    // With the token the request reaches the route (a 400: the address is refused).
    assert.equal((await get(check, { authorization: `Bearer ${TOKEN}` })).status, 400);
    assert.equal((await get(`${s.url}/healthz`)).status, 200);
    assert.equal((await get(`${s.url}/`)).status, 200);
  });
});

describe('Host names', () => {
  test('a service on loopback answers only to loopback names (no DNS rebinding onto it)', async () => {
    const s = await service({});
    const port = new URL(s.url).port;
    const rebound = await get(`${s.url}/healthz`, { host: `attacker.example:${port}` });
    assert.equal(rebound.status, 421);
    assert.match(rebound.body, /does not answer for the host/);
    assert.equal((await get(`${s.url}/healthz`, { host: `localhost:${port}` })).status, 200);
    assert.equal((await get(`${s.url}/healthz`)).status, 200);
  });

  test('allowedHosts lists the names of an exposed service', async () => {
    const s = await service({ access: { allowedHosts: ['robots.internal'] } });
    const port = new URL(s.url).port;
    assert.equal((await get(`${s.url}/healthz`, { host: `robots.internal:${port}` })).status, 200);
    assert.equal((await get(`${s.url}/healthz`, { host: 'other.internal' })).status, 421);
  });
});

describe('a rate limit per client', () => {
  test('past the limit a client gets 429 with Retry-After; another client does not', async () => {
    const s = await service({ access: { rateLimitPerMinute: 5 } });
    const url = `${s.url}/v1/check?url=x`;
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 0; i < 7; i++) {
      last = await get(url, {}, '127.0.0.1');
      statuses.push(last.status);
    }
    assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429, 429]);
    assert.ok(Number(last!.headers['retry-after']) > 0);
    assert.match(last!.body, /more than 5 requests a minute/);
    // Another address is another client.
    assert.equal((await get(url, {}, '127.0.0.3')).status, 400);
    // Health stays answerable for the limited client.
    assert.equal((await get(`${s.url}/healthz`, {}, '127.0.0.1')).status, 200);
  });
});

describe('a rate limit with a token', () => {
  test('callers sharing the one token still have an allowance each', async () => {
    const s = await service({ access: { token: TOKEN, rateLimitPerMinute: 3 } });
    const url = `${s.url}/v1/check?url=x`;
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (let i = 0; i < 3; i++) assert.equal((await get(url, auth, '127.0.0.1')).status, 400);
    assert.equal((await get(url, auth, '127.0.0.1')).status, 429);
    assert.equal((await get(url, auth, '127.0.0.3')).status, 400);
  });
});

describe('headers', () => {
  test('the tester page carries a content security policy and the usual headers', async () => {
    const s = await service({});
    const page = await get(`${s.url}/`);
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    for (const file of ['/tester.js', '/tester-worker.js']) {
      assert.match(
        String((await get(`${s.url}${file}`)).headers['content-security-policy']),
        /'self'/,
      );
    }
  });

  test('API answers stay out of the headers plugin: no CSP on JSON read by programs', async () => {
    const s = await service({});
    const answer = await get(`${s.url}/healthz`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-security-policy'], undefined);
    assert.equal(answer.headers['x-content-type-options'], undefined);
  });
});

describe('what the service does not disclose', () => {
  test('a refused name: the answer says neither the address nor that the name exists', async () => {
    const lookup: LookupFunction = (hostname, options, callback) => {
      const done = callback as unknown as (e: Error | null, a: unknown, f?: number) => void;
      if (hostname !== 'db.corp.internal') {
        return done(Object.assign(new Error('unknown'), { code: 'ENOTFOUND' }), []);
      }
      if ((options as { all?: boolean }).all)
        return done(null, [{ address: '10.0.3.7', family: 4 }]);
      done(null, '10.0.3.7', 4);
    };
    const s = await service({ lookup });
    const answer = await get(
      `${s.url}/v1/check?url=${encodeURIComponent('http://db.corp.internal/x')}`,
    );
    const missing = await get(
      `${s.url}/v1/check?url=${encodeURIComponent('http://no.corp.internal/x')}`,
    );
    assert.equal(answer.status, 200);
    assert.match(answer.body, /db\.corp\.internal does not resolve to an address this service/);
    assert.doesNotMatch(answer.body, /10\.0\.3\.7/);
    const anonymous = (body: string) =>
      body.replace(/(db|no)\.corp/g, 'HOST').replace(/\d{13}/g, 'TIME');
    assert.equal(anonymous(answer.body), anonymous(missing.body));
  });

  test('/v1/robots does not hand out the page a robots.txt redirects to', async () => {
    const site: TestServer = await httpServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(301, { location: '/account' }).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('secret account page');
    });
    running.push(site);
    const s = await service({ allowAddress: () => true });
    const answer = await get(`${s.url}/v1/robots?url=${encodeURIComponent(`${site.origin}/a`)}`);
    assert.equal(answer.status, 200);
    assert.doesNotMatch(answer.body, /secret account page/);
    assert.match(answer.body, /bodyOmitted/);
  });
});
