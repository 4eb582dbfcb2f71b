/**
 * guardPage on a real Playwright page (Debian's Chromium through playwright-core) against
 * loopback sites: disallowed navigations, redirect hops and subresources of the crawled
 * origin are never requested; another origin's subresources go as the page asks; an
 * unreachable robots.txt defers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
// A real Playwright Page is taken as it is: no cast (the README's example type-checks too).
import {
  guardPage,
  isDeferredError,
  isDisallowedError,
  type GuardablePage,
  type RouteLike,
} from '../../src/guards/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

const closing: { close(): Promise<void> }[] = [];
let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser.close();
  for (const thing of closing.splice(0)) await thing.close();
});

/** A new page of the browser, guarded with a client named ExampleBot; closed after the file. */
async function guardedPage(options: Parameters<typeof guardPage>[2] = {}) {
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(client);
  const page = await browser.newPage();
  closing.push(page as unknown as { close(): Promise<void> });
  return guardPage(page, client, options);
}

async function server(handler: Parameters<typeof httpServer>[0]): Promise<TestServer> {
  const made = await httpServer(handler);
  closing.push(made);
  return made;
}

test('navigations, redirect hops and subresources robots.txt disallows are never requested', async () => {
  const other = await server((req, res) => {
    if (req.url === '/robots.txt')
      return void res.writeHead(200).end('User-agent: *\nDisallow: /\n');
    res.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  const site = await server((req, res) => {
    if (req.url === '/robots.txt') {
      return void res.writeHead(200).end('User-agent: *\nDisallow: /private/\n');
    }
    if (req.url === '/moved') return void res.writeHead(302, { location: '/private/y' }).end();
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      req.url === '/'
        ? `<title>home</title><img src="/private/pic.png"><script src="/public/app.js"></script><img src="${other.origin}/theirs.png">`
        : `<title>${req.url}</title>`,
    );
  });
  const guard = await guardedPage();

  await guard.goto(`${site.origin}/`, { waitUntil: 'load' });
  await assert.rejects(guard.goto(`${site.origin}/private/x`), isDisallowedError);
  await assert.rejects(guard.goto(`${site.origin}/moved`), (error: unknown) => {
    assert.ok(isDisallowedError(error), String(error));
    assert.equal(error.url, `${site.origin}/private/y`);
    assert.equal(error.line, 2);
    return true;
  });

  const asked = site.requests.map((r) => r.path);
  assert.ok(asked.includes('/public/app.js'), asked.join(' '));
  assert.ok(asked.includes('/moved'));
  assert.deepEqual(
    asked.filter((p) => p.startsWith('/private/')),
    [],
  );
  assert.ok(guard.refused.some((e) => e.url === `${site.origin}/private/pic.png`));
  // Another origin's image is the page's business, not the crawl's: the guard lets it go
  // without judging it (that origin's robots.txt, which disallows everything, is never read).
  // (Whether it then loads is the browser's. Here it did not reach its server, which it does
  // on the same page without the route: Chromium treats a document served through a route
  // otherwise, for reasons not looked into; a Crawlee crawl's pages are served the same way.)
  assert.ok(!guard.refused.some((e) => e.url.includes('theirs.png')));
  assert.ok(!other.requests.some((r) => r.path === '/robots.txt'));
  await guard.dispose();
});

test('an unreachable robots.txt defers the navigation: nothing is requested', async () => {
  const site = await server((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(503).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>page</title>');
  });
  const guard = await guardedPage();
  await assert.rejects(guard.goto(`${site.origin}/a`), isDeferredError);
  assert.deepEqual(
    site.requests.map((r) => r.path),
    ['/robots.txt'],
  );
});

test("the crawled origin's navigations and subresources carry the client's User-Agent, not HeadlessChrome", async () => {
  const site = await server((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(req.url === '/' ? '<title>home</title><script src="/app.js"></script>' : '');
  });
  const guard = await guardedPage();
  await guard.goto(`${site.origin}/`, { waitUntil: 'load' });
  const agents = Object.fromEntries(site.requests.map((r) => [r.path, r.headers['user-agent']]));
  assert.equal(agents['/'], 'ExampleBot/1.0');
  assert.equal(agents['/app.js'], 'ExampleBot/1.0');
});

test("every redirect hop of goto is routed like the first: judged, the client's User-Agent, a 429 there pauses the host", async () => {
  const site = await server((req, res) => {
    if (req.url === '/robots.txt') {
      return void res.writeHead(200).end('User-agent: *\nDisallow: /private/\n');
    }
    if (req.url === '/chain') return void res.writeHead(301, { location: '/a' }).end();
    if (req.url === '/deep') return void res.writeHead(301, { location: '/b' }).end();
    if (req.url === '/b') return void res.writeHead(302, { location: '/private/z' }).end();
    if (req.url === '/a') return void res.writeHead(302, { location: '/final' }).end();
    if (req.url === '/to-busy') return void res.writeHead(302, { location: '/busy' }).end();
    if (req.url === '/busy')
      return void res.writeHead(429, { 'retry-after': '60' }).end('slow down');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<link rel="icon" href="data:,">');
  });
  const guard = await guardedPage({ maxWaitMs: 1_000 });
  const chained = (await guard.goto(`${site.origin}/chain`)) as { url(): string; status(): number };
  assert.equal(chained.url(), `${site.origin}/final`);
  assert.equal(chained.status(), 200);
  // The second hop's target is judged too: the browser would have followed it unjudged.
  await assert.rejects(guard.goto(`${site.origin}/deep`), (error: unknown) => {
    assert.ok(isDisallowedError(error), String(error));
    assert.equal(error.url, `${site.origin}/private/z`);
    return true;
  });
  const busy = (await guard.goto(`${site.origin}/to-busy`)) as { status(): number };
  assert.equal(busy.status(), 429);
  // The 429 came from a hop the browser would have followed unseen: the host is paused.
  await assert.rejects(guard.goto(`${site.origin}/ok`), isDeferredError);
  assert.deepEqual(
    site.requests.map((r) => `${r.path} ${r.headers['user-agent']}`),
    ['/robots.txt', '/chain', '/a', '/final', '/deep', '/b', '/to-busy', '/busy'].map(
      (p) => `${p} ExampleBot/1.0`,
    ),
  );
});

/**
 * A page as Chromium behaves on a loaded machine: after a navigation the route aborted, the
 * next navigation is interrupted once, after its request was answered, by the error page
 * committing or by that navigation itself committing late, and Playwright's goto rejects
 * with "interrupted by another navigation".
 */
class InterruptedPage implements GuardablePage<FetchedResponse> {
  /**
   * @param times how many navigations after an abort are interrupted (each one asked for
   *   again is interrupted by the one before it, committing late, on a slow enough machine)
   * @param withResponses the page's requests give their response, and the page waits for a
   *   load state, as Playwright's do
   */
  constructor(
    readonly by: 'error page' | 'the hop',
    readonly times = 1,
    readonly withResponses = false,
  ) {
    if (withResponses) this.waitForLoadState = async (state) => void this.waited.push(state!);
  }
  #handler: Parameters<GuardablePage<FetchedResponse>['route']>[1] | undefined;
  #interruptions = 0;
  /** Load states waited for. */
  readonly waited: string[] = [];
  waitForLoadState: GuardablePage['waitForLoadState'];

  async route(_url: string, handler: Parameters<GuardablePage<FetchedResponse>['route']>[1]) {
    this.#handler = handler;
  }

  async unroute() {
    this.#handler = undefined;
  }

  async goto(url: string): Promise<unknown> {
    let answer: FetchedResponse | undefined;
    let aborted: string | undefined;
    const route: RouteLike<FetchedResponse> = {
      fetch: async ({ headers }) => {
        const response = await fetch(url, { redirect: 'manual', headers });
        const body = await response.text();
        return {
          body,
          status: () => response.status,
          headers: () => Object.fromEntries(response.headers),
        };
      },
      fulfill: async ({ response }) => void (answer = response),
      abort: async (code) => void (aborted = code),
      fallback: async () => {},
    };
    const request = {
      url: () => url,
      isNavigationRequest: () => true,
      headers: () => ({}),
      ...(this.withResponses ? { response: async () => answer } : {}),
    };
    await this.#handler?.(route, request);
    if (aborted !== undefined) {
      this.#interruptions = this.times;
      throw new Error(`page.goto: net::ERR_${aborted.toUpperCase()} at ${url}`);
    }
    if (this.#interruptions > 0) {
      this.#interruptions--;
      throw new Error(
        `page.goto: Navigation to "${url}" is interrupted by another navigation to "${this.by === 'the hop' ? url : 'chrome-error://chromewebdata/'}"`,
      );
    }
    return answer;
  }
}

interface FetchedResponse {
  body: string;
  status(): number;
  headers(): Record<string, string>;
}

for (const by of ['error page', 'the hop'] as const)
  test(`a hop whose navigation ${by} interrupted is answered from its one request, not sent again (nor deferred by its own 429)`, async () => {
    const site = await server((req, res) => {
      if (req.url === '/robots.txt')
        return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
      if (req.url === '/to-busy') return void res.writeHead(302, { location: '/busy' }).end();
      if (req.url === '/to-ok') return void res.writeHead(302, { location: '/ok' }).end();
      if (req.url === '/busy')
        return void res.writeHead(429, { 'retry-after': '60' }).end('slow down');
      res.writeHead(200, { 'content-type': 'text/html' }).end('fine');
    });
    const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
    closing.push(client);
    const guard = await guardPage(new InterruptedPage(by), client, { maxWaitMs: 1_000 });
    const ok = (await guard.goto(`${site.origin}/to-ok`)) as FetchedResponse;
    assert.equal(ok.status(), 200);
    assert.equal(ok.body, 'fine');
    const busy = (await guard.goto(`${site.origin}/to-busy`)) as FetchedResponse;
    assert.equal(busy.status(), 429);
    assert.deepEqual(guard.refused, []);
    // The host is paused by the 429 all the same.
    await assert.rejects(guard.goto(`${site.origin}/ok`), isDeferredError);
    assert.deepEqual(
      site.requests.map((r) => r.path),
      ['/robots.txt', '/to-ok', '/ok', '/to-busy', '/busy'],
    );
  });

test('a hop interrupted by itself again and again: the navigation that committed is the answer, after its load', async () => {
  const site = await server((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
    if (req.url === '/to-busy') return void res.writeHead(302, { location: '/busy' }).end();
    if (req.url === '/busy')
      return void res.writeHead(429, { 'retry-after': '60' }).end('slow down');
    res.writeHead(200, { 'content-type': 'text/html' }).end('fine');
  });
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(client);
  // Five interruptions: more than the guard asks again for an error page's (three).
  const page = new InterruptedPage('the hop', 5, true);
  const guard = await guardPage(page, client, { maxWaitMs: 1_000 });
  const busy = (await guard.goto(`${site.origin}/to-busy`)) as FetchedResponse;
  assert.equal(busy.status(), 429);
  assert.equal(busy.body, 'slow down');
  assert.deepEqual(page.waited, ['load']);
  // The 429 paused the host: the next navigation is deferred, not sent.
  await assert.rejects(guard.goto(`${site.origin}/to-busy`), isDeferredError);
  assert.deepEqual(
    site.requests.map((r) => r.path),
    ['/robots.txt', '/to-busy', '/busy'],
  );
});
