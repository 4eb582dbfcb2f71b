/**
 * A store that fails under a real Crawlee crawl: a request whose host's turn cannot be taken
 * waits (fail closed) and the crawl goes on with the other hosts, then finishes.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CheerioCrawler, Configuration, log } from 'crawlee';
import { MemoryStore } from '../../src/cache/index.ts';
import { withRepkitRobots } from '../../src/crawlee/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

log.setLevel(log.LEVELS.OFF);

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

/** A memory store whose `takeTurn` rejects for one origin while `failing` is set. */
class FailingTurns extends MemoryStore {
  failing = true;
  failures = 0;
  constructor(private readonly failingOrigin: string) {
    super();
  }
  override async takeTurn(key: string, intervalMs: number): Promise<number> {
    if (this.failing && key === this.failingOrigin) {
      this.failures++;
      throw new Error('store unreachable');
    }
    return super.takeTurn(key, intervalMs);
  }
}

async function site(): Promise<TestServer & { pagesAt: Map<string, number> }> {
  const pagesAt = new Map<string, number>();
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end('User-agent: *\nDisallow: /private/\n');
    }
    pagesAt.set(req.url ?? '', Date.now());
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>page</body></html>');
  });
  closing.push(server);
  return Object.assign(server, { pagesAt });
}

test('a store whose takeTurn rejects defers that host; the other hosts are crawled; run() ends', async () => {
  const broken = await site();
  const healthy = await site();
  const store = new FailingTurns(broken.origin);
  const Crawler = withRepkitRobots(CheerioCrawler, { userAgent: 'ExampleBot/1.0', store });
  const handled: string[] = [];
  const crawler = new Crawler(
    {
      respectRobotsTxtFile: true,
      requestHandler: async ({ request }) => void handled.push(request.url),
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  let healedAt = 0;
  const heal = setTimeout(() => {
    healedAt = Date.now();
    store.failing = false;
  }, 1_500);
  const run = crawler.run([
    `${broken.origin}/a`,
    `${broken.origin}/b`,
    `${healthy.origin}/a`,
    `${healthy.origin}/b`,
  ]);
  const outcome = await Promise.race([
    run.then(() => 'finished' as const),
    new Promise<'stalled'>((done) => setTimeout(() => done('stalled'), 30_000).unref()),
  ]);
  clearTimeout(heal);
  assert.equal(outcome, 'finished', 'run() settles');
  assert.ok(store.failures > 0, 'the store failed');
  // The healthy host went on while the other waited; the broken one was requested only
  // once its turn could be taken.
  assert.deepEqual([...healthy.pagesAt.keys()].sort(), ['/a', '/b']);
  assert.ok(healedAt > 0);
  for (const [path, at] of broken.pagesAt) {
    assert.ok(at >= healedAt, `${path} requested while its turn could not be taken`);
  }
  assert.equal(handled.length, 4, handled.join(', '));
});
