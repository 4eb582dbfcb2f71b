/**
 * repkit/crawlee decides on what is requested: URLs as Crawlee's HTTP client sends them,
 * every redirect hop against its own robots.txt, a back-off for the host that answered.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { CheerioCrawler, Configuration, log } from 'crawlee';
import { withRepkitRobots } from '../../src/crawlee/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { httpServer, type Handler, type TestServer } from '../helpers/servers.ts';

log.setLevel(log.LEVELS.OFF);

const closing: TestServer[] = [];
after(async () => {
  for (const server of closing.splice(0)) await server.close();
});

async function site(robots: string, pages: Handler, host = '127.0.0.1'): Promise<TestServer> {
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    }
    pages(req, res);
  }, host);
  closing.push(server);
  return server;
}

const page: Handler = (_req, res) =>
  void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>ok</body></html>');

function crawler(client?: RobotsClient) {
  const Crawler = withRepkitRobots(CheerioCrawler, {
    userAgent: 'ExampleBot/1.0',
    ...(client ? { client } : {}),
  });
  const handled: string[] = [];
  const failed: { url: string; message: string; retries: number }[] = [];
  const instance = new Crawler(
    {
      respectRobotsTxtFile: true,
      maxRequestRetries: 2,
      requestHandler: async ({ request }) => void handled.push(request.url),
      failedRequestHandler: async ({ request }, error) =>
        void failed.push({ url: request.url, message: error.message, retries: request.retryCount }),
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  return { crawler: instance, handled, failed };
}

function paths(server: TestServer): string[] {
  return server.requests.map((r) => r.path).filter((p) => p !== '/robots.txt');
}

describe('withRepkitRobots: the verdict is about the request that is made', () => {
  test('odd spellings of a disallowed URL, from addRequests, are never requested', async () => {
    const origin = await site('User-agent: *\nDisallow: /private/\nDisallow: /über/\n', page);
    const { crawler: c, handled } = crawler();
    const odd = [
      '/public/../private/a',
      '/public/%2e%2e/private/b',
      '/public/%2E%2E/private/c',
      '/./private/d',
      '/public\\..\\private\\e',
      '/pri\tvate/f',
      '/über/g',
      '/%C3%BCber/h',
    ];
    await c.run([...odd.map((p) => `${origin.origin}${p}`), `${origin.origin}/public/ok`]);
    assert.deepEqual(paths(origin), ['/public/ok']);
    assert.deepEqual(handled, [`${origin.origin}/public/ok`]);
  });

  test('a redirect into a disallowed path, on the site or another, is not followed', async () => {
    const other = await site('User-agent: *\nDisallow: /closed/\n', page, '127.0.0.2');
    const origin = await site('User-agent: *\nDisallow: /private/\n', (req, res) => {
      const to: Record<string, string> = {
        '/in': '/private/x',
        '/dots': '/public/../private/y',
        '/out': `${other.origin}/closed/z`,
        '/fine': `${other.origin}/open`,
      };
      const location = to[req.url ?? ''];
      if (location) return void res.writeHead(302, { location }).end();
      page(req, res);
    });
    const { crawler: c, handled, failed } = crawler();
    await c.run(['/in', '/dots', '/out', '/fine'].map((p) => `${origin.origin}${p}`));
    assert.deepEqual(paths(origin).sort(), ['/dots', '/fine', '/in', '/out']);
    assert.deepEqual(
      paths(other),
      ['/open'],
      'the disallowed hop on the other site never requested',
    );
    assert.ok(
      other.requests.some((r) => r.path === '/robots.txt'),
      "the hop's own robots.txt was read",
    );
    assert.deepEqual(handled, [`${origin.origin}/fine`]);
    assert.deepEqual(
      failed.map((f) => f.url).sort(),
      ['/dots', '/in', '/out'].map((p) => `${origin.origin}${p}`),
    );
    for (const f of failed) {
      assert.match(f.message, /not followed: its robots\.txt disallows it/);
      assert.equal(f.retries, 0, 'a disallowed hop is not retried');
    }
  });

  test('a 429 after a redirect pauses the host that answered, not the one linked', async () => {
    const hostile = await site(
      '',
      (_req, res) => void res.writeHead(429, { 'retry-after': '86400' }).end(),
      '127.0.0.3',
    );
    const victim = await site('', (req, res) => {
      if (req.url === '/link')
        return void res.writeHead(301, { location: `${hostile.origin}/x` }).end();
      page(req, res);
    });
    // The crawler's own client is closed with the crawl: this one outlives it.
    const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
    const { crawler: c } = crawler(client);
    await c.run([`${victim.origin}/link`]);
    assert.equal(
      (await client.turn(`${victim.origin}/next`)).kind,
      'go',
      'the victim is not paused',
    );
    const turn = await client.turn(`${hostile.origin}/y`);
    assert.equal(turn.kind, 'wait');
    assert.ok(turn.kind === 'wait' && turn.waitMs > 3_600_000, 'the host that answered 429 is');
    await client.close();
  });
});
