/**
 * RobotsClient against real HTTP servers on loopback: every status class, redirects, and
 * the bodies Google documents, each with the verdict Google documents.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { RobotsClient } from '../../src/fetch/index.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';

const ROBOTS =
  'User-agent: *\nDisallow: /private/\n\nUser-agent: ExampleBot\nDisallow: /bot-only/\n';
const servers: TestServer[] = [];
const clients: RobotsClient[] = [];

after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

async function serve(...args: Parameters<typeof httpServer>): Promise<TestServer> {
  const server = await httpServer(...args);
  servers.push(server);
  return server;
}

function client(
  options: Partial<ConstructorParameters<typeof RobotsClient>[0]> = {},
): RobotsClient {
  const made = new RobotsClient({
    userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
    ...options,
  });
  clients.push(made);
  return made;
}

describe('status codes', () => {
  test('200: the body is parsed and applied; the User-Agent header is sent; groups by product token', async () => {
    const server = await serve(
      robotsRoute((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS)),
    );
    const robots = client();
    const blocked = await robots.check(`${server.origin}/bot-only/page`);
    assert.deepEqual(
      [blocked.allowed, blocked.status, blocked.line, blocked.source],
      [false, 200, 5, 'fetched'],
    );
    assert.equal(blocked.robotsUrl, `${server.origin}/robots.txt`);
    assert.equal(blocked.rule?.value, '/bot-only/');
    // ExampleBot has its own group, so the * group's /private/ does not apply to it.
    const open = await robots.check(`${server.origin}/private/x`);
    assert.deepEqual([open.allowed, open.source], [true, 'cache']);
    assert.equal(server.requests.length, 1);
    assert.equal(
      server.requests[0]!.headers['user-agent'],
      'ExampleBot/1.0 (+https://example.com/bot)',
    );
  });

  test('an explicit agent option picks the groups', async () => {
    const server = await serve(robotsRoute((_req, res) => res.writeHead(200).end(ROBOTS)));
    const verdict = await client({ agent: 'OtherBot' }).check(`${server.origin}/private/x`);
    assert.deepEqual([verdict.allowed, verdict.line], [false, 2]);
  });

  for (const status of [400, 401, 403, 404, 410, 451]) {
    test(`${status}: no robots.txt, so no restrictions`, async () => {
      const server = await serve(
        robotsRoute((_req, res) => res.writeHead(status).end('Disallow: /')),
      );
      const verdict = await client().check(`${server.origin}/anything`);
      assert.deepEqual(
        [verdict.allowed, verdict.status, verdict.reason],
        [true, status, 'no-robots-txt'],
      );
    });
  }

  for (const status of [429, 500, 502, 503, 504]) {
    test(`${status}: a server error, so everything is disallowed for now`, async () => {
      const server = await serve(robotsRoute((_req, res) => res.writeHead(status).end()));
      const verdict = await client().check(`${server.origin}/`);
      assert.deepEqual(
        [verdict.allowed, verdict.status, verdict.reason],
        [false, status, 'robots-txt-unreachable'],
      );
    });
  }
});

describe('redirects', () => {
  async function chain(hops: number): Promise<TestServer> {
    return serve((req, res) => {
      const step =
        req.url === '/robots.txt' ? 0 : Number(/^\/hop(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
      if (step < 0) return void res.writeHead(404).end();
      if (step < hops) return void res.writeHead(301, { location: `/hop${step + 1}` }).end();
      res.writeHead(200).end('User-agent: *\nDisallow: /blocked\n');
    });
  }

  for (const hops of [1, 2, 3, 4, 5]) {
    test(`${hops} hop(s): followed, and the rules reached apply to the original origin`, async () => {
      const server = await chain(hops);
      const verdict = await client().check(`${server.origin}/blocked`);
      assert.deepEqual([verdict.allowed, verdict.status, verdict.line], [false, 200, 2]);
      assert.equal(server.requests.length, hops + 1);
    });
  }

  test('6 hops: treated as 404, no restrictions', async () => {
    const server = await chain(6);
    const verdict = await client().check(`${server.origin}/blocked`);
    assert.deepEqual(
      [verdict.allowed, verdict.reason, verdict.status],
      [true, 'no-robots-txt', 301],
    );
    assert.match(verdict.error ?? '', /more than 5 redirects/);
    assert.equal(server.requests.length, 6);
  });

  test('a redirect loop: treated as 404', async () => {
    const server = await serve((req, res) => {
      res.writeHead(302, { location: req.url === '/robots.txt' ? '/a' : '/robots.txt' }).end();
    });
    const verdict = await client().check(`${server.origin}/x`);
    assert.deepEqual([verdict.allowed, verdict.reason], [true, 'no-robots-txt']);
    assert.match(verdict.error ?? '', /loop/);
  });

  test('a cross-host redirect is followed; the rules govern the original host only', async () => {
    const target = await serve(
      robotsRoute((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /\n')),
      '127.0.0.2',
    );
    const origin = await serve((_req, res) =>
      res.writeHead(301, { location: `${target.origin}/robots.txt` }).end(),
    );
    const robots = client();
    const verdict = await robots.check(`${origin.origin}/page`);
    assert.deepEqual([verdict.allowed, verdict.robotsUrl], [false, `${origin.origin}/robots.txt`]);
    const state = await robots.robotsFor(`${origin.origin}/page`);
    assert.deepEqual(state.entry.chain, [
      `${origin.origin}/robots.txt`,
      `${target.origin}/robots.txt`,
    ]);
    // The target host itself has not been asked about: its own robots.txt is a separate fetch.
    await robots.check(`${target.origin}/x`);
    assert.equal(target.requests.length, 2);
  });
});

describe('bodies', () => {
  test('600 KiB body: read up to 500 KiB and parsed; what lies beyond is ignored', async () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const body = head + '#'.repeat(600 * 1024 - head.length - 20) + '\nDisallow: /late\n';
    const server = await serve(robotsRoute((_req, res) => res.writeHead(200).end(body)));
    const robots = client();
    assert.equal((await robots.check(`${server.origin}/early`)).allowed, false);
    assert.equal((await robots.check(`${server.origin}/late`)).allowed, true);
    const state = await robots.robotsFor(`${server.origin}/`);
    assert.equal(state.entry.truncated, true);
    assert.equal(Buffer.from(state.entry.body!, 'base64').length, 512_000);
  });

  test('a gzip bomb is decompressed only up to the limit', async () => {
    const bomb = gzipSync(
      Buffer.concat([
        Buffer.from('User-agent: *\nDisallow: /x\n'),
        Buffer.alloc(64 * 1024 * 1024, 0x20),
      ]),
    );
    assert.ok(bomb.length < 200_000, `bomb is ${bomb.length} bytes compressed`);
    const server = await serve(
      robotsRoute((_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb)),
    );
    const robots = client();
    const before = process.memoryUsage().rss;
    const verdict = await robots.check(`${server.origin}/x`);
    assert.deepEqual([verdict.allowed, verdict.line], [false, 2]);
    const state = await robots.robotsFor(`${server.origin}/`);
    assert.equal(state.entry.truncated, true);
    assert.equal(Buffer.from(state.entry.body!, 'base64').length, 512_000);
    assert.ok(
      process.memoryUsage().rss - before < 48 * 1024 * 1024,
      'the 64 MiB payload was not inflated',
    );
  });

  test('deflate and brotli bodies are decoded', async () => {
    const { deflateSync, brotliCompressSync } = await import('node:zlib');
    for (const [coding, encode] of [
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      const server = await serve(
        robotsRoute((_req, res) =>
          res.writeHead(200, { 'content-encoding': coding }).end(encode(Buffer.from(ROBOTS))),
        ),
      );
      assert.equal((await client().check(`${server.origin}/bot-only/x`)).allowed, false, coding);
    }
  });

  test('an HTML page served as robots.txt is parsed like any body (nothing applies)', async () => {
    const html =
      '<!doctype html><html><head><title>Not found</title></head><body><p>Disallow: this page</p></body></html>';
    const server = await serve(
      robotsRoute((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html)),
    );
    const verdict = await client().check(`${server.origin}/page`);
    assert.deepEqual(
      [verdict.allowed, verdict.reason, verdict.status],
      [true, 'no-matching-group', 200],
    );
  });

  test('a non-UTF-8 body is matched byte for byte', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('User-agent: *\nDisallow: /caf'),
      Buffer.from([0xe9]),
      Buffer.from('\n'),
    ]);
    const server = await serve(
      robotsRoute((_req, res) =>
        res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(latin1),
      ),
    );
    const robots = client();
    assert.equal((await robots.check(`${server.origin}/caf%E9`)).allowed, false);
    assert.equal((await robots.check(`${server.origin}/caf%C3%A9`)).allowed, true);
  });
});
