/**
 * Waiting costs nothing: with many queued URLs of a host that must wait (a Crawl-delay, a
 * robots.txt answering 503 for a while), a real Crawlee crawl holds no request in a timer and
 * admits each one about when it can go, not on every cycle.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CheerioCrawler, Configuration, log } from 'crawlee';
import { withRepkitRobots } from '../../src/crawlee/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import type { Turn } from '../../src/fetch/internal.ts';
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

/** A client counting the host turns asked for (one per admission of an allowed request). */
class CountingClient extends RobotsClient {
  turnsAsked = 0;
  /** When each turn was given (a request let go). */
  readonly goAt: number[] = [];
  override async turn(url: string): Promise<Turn> {
    this.turnsAsked++;
    const turn = await super.turn(url);
    if (turn.kind === 'go') this.goAt.push(Date.now());
    return turn;
  }
}

function crawlerWith(client: RobotsClient, handled: string[]) {
  const Crawler = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0', client });
  return new Crawler(
    {
      respectRobotsTxtFile: true,
      maxConcurrency: 4,
      requestHandler: async ({ request }) => void handled.push(request.url),
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
}

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

test('Crawl-delay with 5,000 queued URLs: each is admitted about once per turn it can take, none held', async () => {
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
  // Deferred requests wait in the queue, not in timers of this process.
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

test('a robots.txt answering 503 with Retry-After: 5,000 queued URLs wait in the queue, then are crawled', async () => {
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
