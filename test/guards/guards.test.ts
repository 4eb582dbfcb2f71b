/**
 * The guards for crawlers built on fetch and undici: against loopback sites, a disallowed
 * request (given, or a redirect hop) is never sent and fails with a DisallowedError naming the
 * deciding line; an unreachable robots.txt defers (DeferredError), never allows; a 503 pauses
 * the host; Crawl-delay turns are kept.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Agent, fetch as undiciFetch, interceptors, request } from 'undici';
import { RobotsClient } from '../../src/fetch/index.ts';
import {
  DeferredError,
  DisallowedError,
  isDeferredError,
  isDisallowedError,
  refusalOf,
  robotsFetch,
  robotsInterceptor,
} from '../../src/guards/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

const ROBOTS = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 0\n';

/** A site whose robots.txt is `robots` (or a status), and whose pages answer by path. */
async function site(
  robots: string | number,
  pages: Record<string, { status: number; headers?: Record<string, string> }> = {},
): Promise<TestServer> {
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      if (typeof robots === 'number') return void res.writeHead(robots).end();
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    }
    const page = pages[req.url ?? ''] ?? { status: 200 };
    res.writeHead(page.status, page.headers).end(`page ${req.url}`);
  });
  closing.push(server);
  return server;
}

function client(): RobotsClient {
  const made = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(made);
  return made;
}

const pagesAsked = (s: TestServer) => s.requests.filter((r) => r.path !== '/robots.txt');

/** The two guards, each as a function that requests a URL and answers its status and body. */
function guarded(robotsClient: RobotsClient) {
  const guardedFetch = robotsFetch(robotsClient, { maxWaitMs: 5_000 });
  const agent = new Agent().compose(
    robotsInterceptor(robotsClient, { maxWaitMs: 5_000 }),
    interceptors.redirect({ maxRedirections: 5 }),
  );
  closing.push(agent);
  return {
    fetch: async (url: string) => {
      const response = await guardedFetch(url);
      return { status: response.status, body: await response.text() };
    },
    'fetch through the interceptor': async (url: string) => {
      const response = await fetch(url, { dispatcher: agent } as RequestInit);
      return { status: response.status, body: await response.text() };
    },
    'undici request through the interceptor': async (url: string) => {
      const response = await request(url, { dispatcher: agent });
      return { status: response.statusCode, body: await response.body.text() };
    },
  };
}

const KINDS = [
  'fetch',
  'fetch through the interceptor',
  'undici request through the interceptor',
] as const;

describe('guards', () => {
  for (const kind of KINDS) {
    test(`${kind}: allowed pages are fetched; a disallowed one, however spelled, is not`, async () => {
      const s = await site(ROBOTS);
      const get = guarded(client())[kind];
      assert.deepEqual(await get(`${s.origin}/public/a`), { status: 200, body: 'page /public/a' });
      for (const path of ['/private/x', '/a/../private/x', '/%70rivate/x'.replace('%70', 'p')]) {
        await assert.rejects(get(`${s.origin}${path}`), (error: unknown) => {
          const cause = (error as { cause?: unknown }).cause ?? error;
          assert.ok(isDisallowedError(cause), String(error));
          assert.equal((cause as DisallowedError).line, 2);
          assert.equal((cause as DisallowedError).url, `${s.origin}/private/x`);
          return true;
        });
      }
      assert.deepEqual(
        pagesAsked(s).map((r) => r.path),
        ['/public/a'],
      );
    });

    test(`${kind}: a redirect into a disallowed path is not followed`, async () => {
      const s = await site(ROBOTS, {
        '/moved': { status: 302, headers: { location: '/private/secret' } },
        '/fine': { status: 301, headers: { location: '/public/b' } },
      });
      const get = guarded(client())[kind];
      assert.deepEqual(await get(`${s.origin}/fine`), { status: 200, body: 'page /public/b' });
      await assert.rejects(get(`${s.origin}/moved`), (error: unknown) => {
        const cause = (error as { cause?: unknown }).cause ?? error;
        assert.ok(isDisallowedError(cause), String(error));
        return true;
      });
      assert.ok(!pagesAsked(s).some((r) => r.path.startsWith('/private/')));
    });

    test(`${kind}: an unreachable robots.txt defers, never allows`, async () => {
      const s = await site(503);
      const get = guarded(client())[kind];
      await assert.rejects(get(`${s.origin}/public/a`), (error: unknown) => {
        const cause = (error as { cause?: unknown }).cause ?? error;
        assert.ok(isDeferredError(cause), String(error));
        assert.equal((cause as DeferredError).why, 'robots-txt-unreachable');
        assert.ok((cause as DeferredError).retryAfterMs >= 1_000);
        return true;
      });
      assert.equal(pagesAsked(s).length, 0);
    });

    test(`${kind}: a Crawl-delay over the client's bound defers the host, saying why; nothing is sent`, async () => {
      const s = await site('User-agent: *\nCrawl-delay: 100000\n');
      const get = guarded(client())[kind];
      await assert.rejects(get(`${s.origin}/public/a`), (error: unknown) => {
        const cause = (error as { cause?: unknown }).cause ?? error;
        assert.ok(isDeferredError(cause), String(error));
        assert.equal((cause as DeferredError).why, 'crawl-delay-over-limit');
        assert.match((cause as DeferredError).message, /Crawl-delay of 100000 s/);
        return true;
      });
      assert.equal(pagesAsked(s).length, 0);
    });

    test(`${kind}: a 503 page pauses its host; the next request is deferred`, async () => {
      const s = await site(ROBOTS, { '/busy': { status: 503, headers: { 'retry-after': '120' } } });
      const get = guarded(client())[kind];
      assert.equal((await get(`${s.origin}/busy`)).status, 503);
      await assert.rejects(get(`${s.origin}/public/a`), (error: unknown) => {
        const cause = (error as { cause?: unknown }).cause ?? error;
        assert.ok(isDeferredError(cause), String(error));
        assert.equal((cause as DeferredError).why, 'politeness');
        assert.ok((cause as DeferredError).retryAfterMs > 100_000);
        return true;
      });
      assert.deepEqual(
        pagesAsked(s).map((r) => r.path),
        ['/busy'],
      );
    });
  }

  for (const kind of KINDS) {
    test(`${kind}: requests to one host go a Crawl-delay apart`, async () => {
      const at: number[] = [];
      const s = await httpServer((req, res) => {
        if (req.url === '/robots.txt')
          return void res.writeHead(200).end('User-agent: *\nCrawl-delay: 0.3\n');
        at.push(Date.now());
        res.writeHead(200).end('page');
      });
      closing.push(s);
      const get = guarded(client())[kind];
      await Promise.all([1, 2, 3].map((i) => get(`${s.origin}/${i}`)));
      assert.equal(at.length, 3);
      at.sort((a, b) => a - b);
      for (let i = 1; i < at.length; i++)
        assert.ok(at[i]! - at[i - 1]! >= 250, `${at[i]! - at[i - 1]!} ms apart`);
    });
  }
});

describe('one identity: the pages go out with the client’s User-Agent', () => {
  test('fetch, undici fetch and the interceptor send it; a caller’s own header is kept', async () => {
    const server = await site(ROBOTS);
    const robotsClient = client();
    const agent = new Agent().compose(robotsInterceptor(robotsClient));
    closing.push(agent);
    const viaFetch = robotsFetch(robotsClient);
    const viaUndiciFetch = robotsFetch(robotsClient, {
      fetch: undiciFetch as unknown as typeof fetch,
    });
    await (await viaFetch(`${server.origin}/a`)).text();
    await (await viaUndiciFetch(`${server.origin}/b`)).text();
    await (await request(`${server.origin}/c`, { dispatcher: agent })).body.text();
    await (await viaFetch(`${server.origin}/d`, { headers: { 'user-agent': 'Mine/2' } })).text();
    await (
      await request(`${server.origin}/e`, {
        dispatcher: agent,
        headers: { 'User-Agent': 'Mine/2' },
      })
    ).body.text();
    const unnamed = robotsFetch(robotsClient, { identify: false });
    await (await unnamed(`${server.origin}/f`)).text();
    const agents = Object.fromEntries(
      pagesAsked(server).map((r) => [r.path, r.headers['user-agent']]),
    );
    assert.deepEqual(
      [agents['/a'], agents['/b'], agents['/c'], agents['/d'], agents['/e']],
      ['ExampleBot/1.0', 'ExampleBot/1.0', 'ExampleBot/1.0', 'Mine/2', 'Mine/2'],
    );
    assert.notEqual(agents['/f'], 'ExampleBot/1.0');
  });
});

test('refusalOf finds the refusal fetch(url, { dispatcher }) wraps in TypeError: fetch failed', async () => {
  const server = await site(ROBOTS);
  const agent = new Agent().compose(robotsInterceptor(client()));
  closing.push(agent);
  const error = await fetch(`${server.origin}/private/x`, {
    dispatcher: agent,
  } as RequestInit).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof TypeError, String(error));
  // The type guard says what the error is; refusalOf looks through its causes.
  assert.equal(isDisallowedError(error), false);
  const refusal = refusalOf(error);
  assert.ok(refusal && isDisallowedError(refusal));
  assert.equal(refusal.line, 2);
  assert.equal(refusalOf(new Error('other')), undefined);
  // Another copy of repkit's refusal is known by its name and code.
  const foreign = Object.assign(new Error('x'), { name: 'DisallowedError', code: 'disallowed' });
  assert.equal(isDisallowedError(foreign), true);
  assert.deepEqual(pagesAsked(server), []);
});
