/**
 * Waiting costs nothing: with many queued URLs of a host that must wait (a Crawl-delay, a
 * robots.txt answering 503 for a while), a real Crawlee crawl keeps no timer per request,
 * takes the waiting ones out of its queue (whose every refill would walk them) and admits
 * each one about when it can go, not on every cycle.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CheerioCrawler, Configuration, RequestList, RequestQueue, log } from 'crawlee';
import { withRepkitRobots } from '../../src/crawlee/index.ts';
import { RobotsClient, type RobotsClientOptions } from '../../src/fetch/index.ts';
import { clientSeam } from '../../src/fetch/internal.ts';
import type { Turn } from '../../src/fetch/politeness.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

log.setLevel(log.LEVELS.OFF);

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

async function site(
  robots: () => { status: number; body: string; headers?: Record<string, string> },
  pagesAt: number[] = [],
): Promise<TestServer> {
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      const answer = robots();
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      return void res.end(answer.body);
    }
    pagesAt.push(Date.now());
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>page</body></html>');
  });
  closing.push(server);
  return server;
}

/**
 * A client counting the host turns asked for (one per admission of an allowed request):
 * admissions take their turn through the client's seam, with the robots.txt state at hand.
 */
class CountingClient extends RobotsClient {
  turnsAsked = 0;
  /** When each turn was given (a request let go). */
  readonly goAt: number[] = [];
  constructor(options: RobotsClientOptions) {
    super(options);
    const seam = clientSeam(this);
    const turnFor = seam.turnFor;
    seam.turnFor = async (state): Promise<Turn> => {
      this.turnsAsked++;
      const turn = await turnFor(state);
      if (turn.kind === 'go') this.goAt.push(Date.now());
      return turn;
    };
  }
}

function crawlerWith(
  client: RobotsClient,
  handled: string[],
  more: {
    maxHeld?: number;
    requestQueue?: RequestQueue;
    requestList?: RequestList;
    config?: Configuration;
  } = {},
) {
  const Crawler = withRepkitRobots(CheerioCrawler, {
    userAgent: 'ExampleBot/1.0',
    client,
    ...(more.maxHeld !== undefined ? { maxHeld: more.maxHeld } : {}),
  });
  return new Crawler(
    {
      respectRobotsTxtFile: true,
      maxConcurrency: 4,
      requestHandler: async ({ request }) => void handled.push(request.url),
      ...(more.requestQueue ? { requestQueue: more.requestQueue } : {}),
      ...(more.requestList ? { requestList: more.requestList } : {}),
    },
    more.config ?? new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
}

/** Resolves when `done()` holds, checked every 50 ms, or fails after `ms`. */
async function until(done: () => boolean, what: string, ms = 120_000): Promise<void> {
  const since = Date.now();
  while (!done()) {
    if (Date.now() - since > ms) assert.fail(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How many requests the queue's storage holds that are not handled yet. */
async function pendingIn(queue: RequestQueue): Promise<number> {
  return (await queue.client.get())!.pendingRequestCount ?? Number.NaN;
}

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

test('Crawl-delay with 5,000 queued URLs: each is admitted about once per turn it can take, no timer per request', async () => {
  const pagesAt: number[] = [];
  const origin = await site(
    () => ({ status: 200, body: 'User-agent: *\nCrawl-delay: 1\n' }),
    pagesAt,
  );
  const client = new CountingClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(client);
  const handled: string[] = [];
  const crawler = crawlerWith(client, handled);
  const urls = Array.from({ length: 5_000 }, (_, i) => `${origin.origin}/p${i}`);
  const before = timers();
  const run = crawler.run(urls);
  // Crawlee adds a long list in the background: the clock starts at the first page.
  const since = Date.now();
  while (handled.length === 0 && Date.now() - since < 60_000) {
    await new Promise((done) => setTimeout(done, 50));
  }
  await new Promise((done) => setTimeout(done, 4_500));
  const heldTimers = timers() - before;
  const turns = client.turnsAsked;
  // Counted now: the abort below lets go what was already admitted, however long it takes.
  const pages = handled.length;
  crawler.autoscaledPool?.abort();
  await run;
  // One page a second at most, so at most 5 or 6 in the 4.5 s after the first; and the crawl
  // goes on (Crawlee's own lag between a send and its handler costs a page or two).
  assert.ok(pages >= 3 && pages <= 6, `${pages} pages`);
  // Every URL is admitted once when first dequeued, then again only when its turn comes:
  // re-admitting every waiting URL at each turn would be about 5,000 a second.
  assert.ok(turns < urls.length + 30, `${turns} admissions`);
  // Deferred requests wait in one table ordered by turn, not in a timer each.
  assert.ok(heldTimers < 20, `${heldTimers} timers`);
  // Turns were given a Crawl-delay apart, and pages leave a Crawl-delay apart too: Crawlee's
  // first request takes seconds to set up, and pages admitted a turn apart used to reach the
  // site together (four in 26 ms) until each send kept the spacing as well. What the site sees
  // also carries this busy process's own delays after a page leaves (got's pipeline, up to a
  // second here while Crawlee adds 5,000 URLs), which can bring a late page next to the one
  // after it; but never three pages within a Crawl-delay.
  for (let i = 1; i < client.goAt.length; i++) {
    const gap = client.goAt[i]! - client.goAt[i - 1]!;
    assert.ok(gap >= 990, `turns ${gap} ms apart`);
  }
  const at = pagesAt.map((t) => t - pagesAt[0]!);
  for (let i = 2; i < at.length; i++) {
    assert.ok(
      at[i]! - at[i - 2]! >= 1_000,
      `three pages within a second at the site: ${at.join(' ')} ms`,
    );
  }
  assert.ok(client.goAt.length >= pages);
});

test('a robots.txt answering 503 with Retry-After: 5,000 queued URLs wait, then are crawled', async () => {
  let asked = 0;
  const origin = await site(() =>
    asked++ === 0
      ? { status: 503, body: '', headers: { 'retry-after': '2' } }
      : { status: 200, body: 'User-agent: *\nDisallow: /private/\n' },
  );
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(client);
  const handled: string[] = [];
  const crawler = crawlerWith(client, handled);
  const urls = Array.from({ length: 5_000 }, (_, i) => `${origin.origin}/p${i}`);
  const before = timers();
  const run = crawler.run(urls);
  await new Promise((done) => setTimeout(done, 1_000));
  const heldTimers = timers() - before;
  const pagesWhileUnreachable = origin.requests.filter((r) => r.path !== '/robots.txt').length;
  await run;
  assert.equal(pagesWhileUnreachable, 0, 'nothing requested while robots.txt is unreachable');
  assert.ok(heldTimers < 20, `${heldTimers} timers held for 5,000 deferred requests`);
  assert.equal(handled.length, 5_000);
});

test('deferred requests leave the queue while they wait, and are back in it, pending, when the crawl stops', async () => {
  let robots = 'User-agent: *\nCrawl-delay: 60\n';
  const origin = await site(() => ({ status: 200, body: robots }));
  const config = new Configuration({ persistStorage: false, purgeOnStart: false });
  const queue = await RequestQueue.open(`held-${process.pid}-${Date.now()}`, { config });
  closing.push({ close: () => queue.drop() });
  const urls = Array.from({ length: 200 }, (_, i) => `${origin.origin}/p${i}`);
  await queue.addRequests(urls.map((url) => ({ url })));
  const client = new CountingClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(client);
  const handled: string[] = [];
  const crawler = crawlerWith(client, handled, { requestQueue: queue, config });
  const run = crawler.run();
  try {
    // Every URL admitted once: one crawled, the others waiting for their turns.
    await until(
      () => client.turnsAsked >= urls.length && handled.length === 1,
      'every URL to be admitted',
    );
    // Locked in the queue, they were walked on every refill of its head (O(n²) to defer n).
    assert.equal(await pendingIn(queue), 0, 'waiting requests are out of the queue');
  } finally {
    crawler.autoscaledPool?.abort();
    await run;
  }
  assert.equal(await pendingIn(queue), urls.length - 1, 'back in the queue when the crawl stops');
  // A crawl resumed on the queue finds them.
  robots = 'User-agent: *\nDisallow:\n';
  const again = new CountingClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(again);
  await crawlerWith(again, handled, { requestQueue: queue, config }).run();
  assert.equal(new Set(handled).size, urls.length, 'every URL crawled once');
  assert.equal(handled.length, urls.length);
});

test('at most maxHeld requests wait out of the queue: past that, nothing more is dequeued', async () => {
  const origin = await site(() => ({ status: 200, body: 'User-agent: *\nCrawl-delay: 60\n' }));
  const config = new Configuration({ persistStorage: false, purgeOnStart: false });
  const queue = await RequestQueue.open(`bound-${process.pid}-${Date.now()}`, { config });
  closing.push({ close: () => queue.drop() });
  const urls = Array.from({ length: 200 }, (_, i) => `${origin.origin}/p${i}`);
  await queue.addRequests(urls.map((url) => ({ url })));
  const client = new CountingClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(client);
  const handled: string[] = [];
  const crawler = crawlerWith(client, handled, { requestQueue: queue, config, maxHeld: 20 });
  const run = crawler.run();
  let admitted: number;
  let pending: number;
  try {
    await until(
      () => client.turnsAsked >= 21 && handled.length === 1,
      'the first page and 20 held',
    );
    // Given time to take more, the crawler takes none while 20 are held.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    admitted = client.turnsAsked;
    pending = await pendingIn(queue);
  } finally {
    crawler.autoscaledPool?.abort();
    await run;
  }
  assert.equal(admitted, 21, `${admitted} admissions`);
  assert.equal(handled.length, 1);
  assert.equal(pending, urls.length - 21, 'the rest stay in the queue');
});

test('from a RequestList, deferred requests are held too, and crawled a Crawl-delay apart', async () => {
  const pagesAt: number[] = [];
  const origin = await site(
    () => ({ status: 200, body: 'User-agent: *\nCrawl-delay: 1\n' }),
    pagesAt,
  );
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
  closing.push(client);
  const handled: string[] = [];
  const urls = Array.from({ length: 4 }, (_, i) => `${origin.origin}/p${i}`);
  const requestList = await RequestList.open(null, urls);
  await crawlerWith(client, handled, { requestList }).run();
  assert.deepEqual([...handled].sort(), [...urls].sort());
  for (let i = 1; i < pagesAt.length; i++) {
    assert.ok(
      pagesAt[i]! - pagesAt[i - 1]! >= 950,
      `pages ${pagesAt[i]! - pagesAt[i - 1]!} ms apart`,
    );
  }
});
