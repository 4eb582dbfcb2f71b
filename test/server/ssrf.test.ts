/**
 * SSRF with read-back: a "public" site (127.0.0.2, which the test's address filter treats as
 * public) answers its /robots.txt with redirects into the private network (127.0.0.1 and
 * ::1, where an internal server holds a secret), in every form a host can take. The service
 * must never connect there, never return or cache the secret, and say why.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RobotsClient } from '../../src/fetch/index.ts';
import { isPublicAddress, startService, type RunningService } from '../../src/server/index.ts';
import { httpServer, lookupBy, type TestServer } from '../helpers/servers.ts';

const SECRET = 'User-agent: *\nDisallow: /internal-secret-7f3a\n';

/** Names the test's DNS knows: *.public.test is the "public" site, the rest are private. */
const NAMES: Record<string, string> = {
  localhost: '127.0.0.1',
  'rebind.test': '127.0.0.1',
  'flip.test': '127.0.0.1',
};
export const testLookup = lookupBy((hostname) =>
  hostname.endsWith('.public.test') ? '127.0.0.2' : NAMES[hostname],
);
const publicForTest = (address: string) => address === '127.0.0.2' || isPublicAddress(address);

let internal: TestServer;
let internal6: TestServer;
let site: TestServer;
let service: RunningService;
/** Where each `hN.public.test` redirects its /robots.txt. */
const targets: string[] = [];
let internalPort: number;

before(async () => {
  internal = await httpServer((_req, res) => res.writeHead(200).end(SECRET), '127.0.0.1');
  internal6 = await httpServer((_req, res) => res.writeHead(200).end(SECRET), '::1');
  internalPort = Number(new URL(internal.origin).port);
  const port6 = Number(internal6.origin.slice(internal6.origin.lastIndexOf(':') + 1));
  site = await httpServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const index = Number(/^h(\d+)\./.exec(host)?.[1] ?? -1);
    const target = targets[index];
    if (req.url === '/robots.txt' && target) return res.writeHead(302, { location: target }).end();
    res.writeHead(404).end();
  }, '127.0.0.2');
  const sitePort = Number(new URL(site.origin).port);
  targets.push(
    `http://127.0.0.1:${internalPort}/robots.txt`,
    `http://[::1]:${port6}/robots.txt`,
    `http://127.1:${internalPort}/robots.txt`,
    `http://0x7f000001:${internalPort}/robots.txt`,
    `http://2130706433:${internalPort}/robots.txt`,
    `http://0.0.0.0:${internalPort}/robots.txt`,
    `http://[::ffff:127.0.0.1]:${internalPort}/robots.txt`,
    `http://localhost:${internalPort}/robots.txt`,
    `http://rebind.test:${internalPort}/robots.txt`,
    // Two hops: first to another public name, which then goes private.
    `http://h0.public.test:${sitePort}/robots.txt`,
  );
  service = await startService({ port: 0, allowAddress: publicForTest, lookup: testLookup });
});
after(async () => {
  await service.close();
  await Promise.all([internal.close(), internal6.close(), site.close()]);
});

describe('SSRF through redirects', () => {
  test('every redirect hop into the private network is refused, in every host form', async () => {
    const sitePort = new URL(site.origin).port;
    for (const [i, target] of targets.entries()) {
      const page = `http://h${i}.public.test:${sitePort}/page`;
      const robots = await fetch(`${service.url}/v1/robots?url=${encodeURIComponent(page)}`);
      const json = (await robots.json()) as {
        outcome: string;
        body: string;
        error?: string;
        errorCode?: string;
      };
      assert.equal(robots.status, 200, target);
      assert.equal(json.outcome, 'error', target);
      assert.equal(json.body, '', target);
      // An address is refused as such; a name of one fails as a name that does not resolve.
      assert.match(json.error ?? '', /EREFUSEDADDRESS|does not resolve to an address/, target);
      const refused = /EREFUSEDADDRESS/.test(json.error ?? '');
      assert.equal(json.errorCode, refused ? 'EREFUSEDADDRESS' : 'ENOTFOUND', target);
      const check = await fetch(`${service.url}/v1/check?url=${encodeURIComponent(page)}`);
      const verdict = (await check.json()) as {
        allowed: boolean;
        reason: string;
        errorCode?: string;
      };
      assert.deepEqual(
        [verdict.allowed, verdict.reason, verdict.errorCode],
        [false, 'robots-txt-unreachable', json.errorCode],
        target,
      );
    }
    assert.equal(internal.requests.length, 0, 'the internal server was never asked');
    assert.equal(internal6.requests.length, 0, 'the internal IPv6 server was never asked');
  });

  test('a private first host is a 400 in every address form', async () => {
    for (const host of ['127.1', '0x7f000001', '2130706433', '[::ffff:7f00:1]']) {
      const url = `http://${host}:${internalPort}/x`;
      const response = await fetch(`${service.url}/v1/check?url=${encodeURIComponent(url)}`);
      const json = (await response.json()) as { error: string };
      assert.deepEqual([response.status, json.error], [400, 'private-address'], host);
    }
    assert.equal(internal.requests.length, 0);
  });

  test('a name of a private address answers as a name that does not exist: no oracle', async () => {
    // What a stranger sees for `host`, with the host's name and the times taken out.
    const seen = async (path: string, host: string): Promise<string> => {
      const response = await fetch(`${service.url}${path}`);
      const text = (await response.text()).replaceAll(host, 'HOST').replace(/\d{13}/g, 'TIME');
      return `${response.status} ${text}`;
    };
    const sitePort = new URL(site.origin).port;
    for (const name of ['localhost', 'rebind.test']) {
      const unknown = `nothing-${name.replace('.', '-')}.test`;
      for (const route of ['/v1/check', '/v1/robots']) {
        // Asked directly...
        const direct = (host: string) =>
          seen(`${route}?url=${encodeURIComponent(`http://${host}:${internalPort}/x`)}`, host);
        const [privateName, missing] = await Promise.all([direct(name), direct(unknown)]);
        assert.equal(privateName, missing, `${route}: ${name}`);
        assert.match(privateName, /^200 /);
        // ... and through a public site's robots.txt redirecting there.
        const redirected = async (host: string) => {
          targets.push(`http://${host}:${internalPort}/robots.txt`);
          const page = `http://h${targets.length - 1}.public.test:${sitePort}/page`;
          return seen(`${route}?url=${encodeURIComponent(page)}`, host);
        };
        const viaPrivate = (await redirected(name)).replace(/h\d+\.public/g, 'SITE');
        const viaMissing = (await redirected(unknown)).replace(/h\d+\.public/g, 'SITE');
        assert.equal(viaPrivate, viaMissing, `${route} through a redirect: ${name}`);
      }
    }
    assert.equal(internal.requests.length, 0);
  });

  test('the guard holds at the socket: an address allowed at lookup but not once connected', async () => {
    // The filter says yes when the name is resolved and no afterwards, as if DNS had changed
    // between the check and the connection: the connected address is checked again.
    let asked = 0;
    const client = new RobotsClient({
      userAgent: 'TestBot/1.0',
      lookup: testLookup,
      allowAddress: () => asked++ === 0,
    });
    try {
      const result = await client.check(`http://flip.test:${internalPort}/x`);
      assert.equal(result.allowed, false);
      assert.match(result.error ?? '', /EREFUSEDADDRESS/);
      assert.equal(result.errorCode, 'EREFUSEDADDRESS');
      assert.ok(asked >= 2, 'checked at lookup and at the socket');
      assert.equal(internal.requests.length, 0, 'no request was written on the socket');
    } finally {
      await client.close();
    }
  });
});
