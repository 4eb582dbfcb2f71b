/**
 * The fetch client and the service decide on the request that is made: the URL as a client
 * serialises it, each redirect hop against its own robots.txt, one origin per host however
 * it is spelled, entries read far enough for the reader, the address guard through a proxy.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { MemoryStore } from '../../src/cache/index.ts';
import { parse, requestTarget } from '../../src/core/index.ts';
import { RobotsClient, type CheckResult, type UsageAnswer } from '../../src/fetch/index.ts';
import { startService, type RunningService } from '../../src/server/index.ts';
import { httpServer, lookupTo, proxyServer, type TestServer } from '../helpers/servers.ts';

const ROBOTS = 'User-agent: *\nDisallow: /private/\nDisallow: /über/\nDisallow: /*sessionid=\n';

const servers: { close(): Promise<void> }[] = [];
after(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('client and service: the URL judged is the URL requested', () => {
  let site: TestServer;
  let client: RobotsClient;
  let service: RunningService;
  before(async () => {
    site = await httpServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(200).end(ROBOTS);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    });
    servers.push(site);
    client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
    service = await startService({ port: 0, allowAddress: () => true });
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  test('odd spellings of a disallowed path are disallowed, and the answer names the URL requested', async () => {
    for (const path of [
      '/public/../private/a',
      '/public/%2e%2e/private/b',
      '/./private/d',
      '/public\\..\\private\\a',
      '/pri\tvate/b',
      '/über/d',
    ]) {
      const url = `${site.origin}${path}`;
      const result = await client.check(url);
      assert.equal(result.allowed, false, JSON.stringify(path));
      assert.equal(result.url, url);
      assert.equal(result.requestUrl, requestTarget(url)!.url);
      const served = (await (
        await fetch(`${service.url}/v1/check?url=${encodeURIComponent(url)}&agent=ExampleBot`)
      ).json()) as CheckResult;
      assert.equal(served.allowed, false, `service: ${JSON.stringify(path)}`);
      assert.equal(served.requestUrl, result.requestUrl);
    }
    const plain = await client.check(`${site.origin}/public/a`);
    assert.equal(plain.requestUrl, undefined, 'no requestUrl when nothing changes');
  });

  test('for any URL string, client and service verdicts are the core verdict of what is sent', async () => {
    const robots = parse(ROBOTS);
    const piece = fc.constantFrom(
      'private/',
      'public/',
      'über/',
      '/',
      '../',
      './',
      '%2e%2e/',
      '%2E/',
      '..\\',
      '\t',
      '?',
      '&',
      'sessionid=',
      '#',
      '%',
      ' ',
      'ü',
      '%41',
      ';',
      'a',
    );
    const urls = fc
      .array(piece, { maxLength: 8 })
      .map((parts) => `${site.origin}/${parts.join('')}`);
    await fc.assert(
      fc.asyncProperty(fc.array(urls, { minLength: 1, maxLength: 5 }), async (batch) => {
        const response = await fetch(`${service.url}/v1/check`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ urls: batch, agent: 'ExampleBot' }),
        });
        const { results } = (await response.json()) as { results: CheckResult[] };
        for (const [i, url] of batch.entries()) {
          const sent = requestTarget(url)!;
          // Every form a client may send (an empty query goes out with or without its `?`)
          // is judged: allowed only if all are.
          const forms = [sent.url, ...(sent.alternatives ?? [])];
          const expected = forms.every((form) => robots.isAllowed(form, 'ExampleBot'));
          assert.equal((await client.check(url)).allowed, expected, url);
          assert.equal(results[i]!.allowed, expected, `service: ${url}`);
          // What a client really puts on the wire is what was judged.
          site.requests.length = 0;
          await (await fetch(url)).arrayBuffer();
          const paths = forms.map((form) => form.slice(site.origin.length));
          assert.ok(paths.includes(site.requests[0]!.path), `${site.requests[0]!.path} sent`);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('usage(): page and tdmrep.json redirects are checked hop by hop', () => {
  test('a redirect into a disallowed path, here or on a site never read, is not requested', async () => {
    const other = await httpServer((req, res) => {
      if (req.url === '/robots.txt')
        return void res.writeHead(200).end('User-agent: *\nDisallow: /no/\n');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    }, '127.0.0.2');
    servers.push(other);
    const site = await httpServer((req, res) => {
      const to: Record<string, string> = {
        '/robots.txt': '',
        '/a': '/private/x',
        '/b': `${other.origin}/no/y`,
        '/c': `${other.origin}/fine`,
        '/.well-known/tdmrep.json': '/private/tdmrep.json',
      };
      if (req.url === '/robots.txt') return void res.writeHead(200).end(ROBOTS);
      const location = to[req.url ?? ''];
      if (location) return void res.writeHead(302, { location }).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    });
    servers.push(site);
    const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
    try {
      const answers: UsageAnswer[] = [];
      for (const path of ['/a', '/b', '/c'])
        answers.push(await client.usage(`${site.origin}${path}`));
      const [a, b, c] = answers as [UsageAnswer, UsageAnswer, UsageAnswer];
      assert.equal(a.page?.refusedHop?.url, `${site.origin}/private/x`);
      assert.match(a.page!.refusedHop!.reason, /robots\.txt disallows it \(.*line 2\)/);
      assert.equal(a.index.may, false);
      assert.equal(b.page?.refusedHop?.url, `${other.origin}/no/y`);
      assert.equal(c.page?.refusedHop, undefined);
      const sitePaths = site.requests.map((r) => r.path);
      assert.ok(!sitePaths.some((p) => p.startsWith('/private/')), sitePaths.join());
      assert.deepEqual(
        other.requests.map((r) => r.path),
        ['/robots.txt', '/fine'],
      );
      const tdmrep = await client.tdmrepFor(`${site.origin}/a`);
      assert.equal(tdmrep.file, undefined);
      assert.match(tdmrep.entry.error ?? '', /not followed/);
    } finally {
      await client.close();
    }
  });
});

describe('one origin per host, one entry per limit', () => {
  test('site.test and site.test. are one origin: one robots.txt fetch, one politeness turn', async () => {
    const site = await httpServer((req, res) => {
      if (req.url === '/robots.txt')
        return void res.writeHead(200).end('User-agent: *\nCrawl-delay: 60\n');
      res.writeHead(200).end();
    });
    servers.push(site);
    const port = new URL(site.origin).port;
    const client = new RobotsClient({ userAgent: 'ExampleBot/1.0', lookup: lookupTo('127.0.0.1') });
    try {
      await client.check(`http://site.test:${port}/a`);
      await client.check(`http://SITE.test.:${port}/b`);
      assert.equal(site.requests.filter((r) => r.path === '/robots.txt').length, 1);
      assert.equal((await client.turn(`http://site.test.:${port}/a`)).kind, 'go');
      assert.equal((await client.turn(`http://site.test:${port}/b`)).kind, 'wait');
    } finally {
      await client.close();
    }
  });

  test('a member reading more than another cut does not trust the cut entry', async () => {
    // The Disallow stands past the first member's limit.
    const body = `User-agent: *\n# ${'x'.repeat(2_000)}\nDisallow: /deep/\n`;
    const site = await httpServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(200).end(body);
      res.writeHead(200).end();
    });
    servers.push(site);
    const store = new MemoryStore();
    const small = new RobotsClient({ userAgent: 'ExampleBot/1.0', store, maxBytes: 1_000 });
    const large = new RobotsClient({ userAgent: 'ExampleBot/1.0', store });
    try {
      assert.equal(
        (await small.check(`${site.origin}/deep/x`)).allowed,
        true,
        'cut before the rule',
      );
      assert.equal((await large.check(`${site.origin}/deep/x`)).allowed, false);
      assert.equal(site.requests.filter((r) => r.path === '/robots.txt').length, 2);
      // The larger read now serves a reader with a smaller limit too.
      const again = new RobotsClient({ userAgent: 'ExampleBot/1.0', store, maxBytes: 1_000 });
      assert.equal(
        (await again.check(`${site.origin}/deep/x`)).allowed,
        true,
        'read to its own limit',
      );
      assert.equal(site.requests.filter((r) => r.path === '/robots.txt').length, 2);
      await again.close();
    } finally {
      await small.close();
      await large.close();
    }
  });
});

describe("proxy: 'env' under the address guard", () => {
  test('a redirect to a NO_PROXY host is guarded at the socket; a proxied name is checked first', async () => {
    const inside = await httpServer(
      (_req, res) => void res.writeHead(200).end('User-agent: *\nAllow: /\n'),
      '127.0.0.2',
    );
    const outside = await httpServer(
      (_req, res) => void res.writeHead(301, { location: `${inside.origin}/robots.txt` }).end(),
    );
    servers.push(inside, outside);
    const proxy = await proxyServer();
    servers.push(proxy);
    const saved = { ...process.env };
    Object.assign(process.env, { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.2' });
    delete process.env['http_proxy'];
    delete process.env['no_proxy'];
    let client: RobotsClient;
    try {
      client = new RobotsClient({
        userAgent: 'ExampleBot/1.0',
        proxy: 'env',
        allowAddress: (address) => address !== '127.0.0.2',
        lookup: lookupTo('127.0.0.2'),
      });
    } finally {
      process.env = saved;
    }
    try {
      const viaRedirect = await client.check(`${outside.origin}/page`);
      assert.equal(viaRedirect.allowed, false);
      assert.equal(viaRedirect.reason, 'robots-txt-unreachable');
      assert.match(viaRedirect.error ?? '', /127\.0\.0\.2/);
      assert.equal(viaRedirect.errorCode, 'EREFUSEDADDRESS');
      assert.deepEqual(inside.requests, [], 'the NO_PROXY host was never requested');
      assert.ok(
        proxy.targets.includes(new URL(outside.origin).host),
        'the first hop went through the proxy',
      );
      // A name that resolves to a refused address is not sent to the proxy at all.
      const named = await client.check('http://inside.test/x');
      assert.equal(named.reason, 'robots-txt-unreachable');
      // Refused before the proxy is asked: the same code as a refusal at the socket.
      assert.deepEqual(
        [named.errorCode, named.error?.startsWith('EREFUSEDADDRESS: ')],
        ['EREFUSEDADDRESS', true],
      );
      assert.ok(!proxy.targets.some((t) => t.startsWith('inside.test')), proxy.targets.join());
    } finally {
      await client.close();
    }
  });
});
