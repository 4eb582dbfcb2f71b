/**
 * The crawler says what it is doing (through Crawlee's logger) and is one identity: the pages
 * carry the User-Agent robots.txt was fetched with. Real Crawlee crawls of loopback sites.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CheerioCrawler, Configuration, Log, LogLevel, Logger, log } from 'crawlee';
import { withRepkitRobots } from '../../src/crawlee/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

log.setLevel(log.LEVELS.OFF);

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

/** A Crawlee logger keeping the lines (with their level) instead of printing them. */
class Capture extends Logger {
  readonly lines: { level: number; message: string }[] = [];
  override _log(level: number, message: string): string {
    this.lines.push({ level, message });
    return message;
  }
}

async function site(
  robots: (n: number) => { status: number; body: string; headers?: Record<string, string> },
): Promise<TestServer> {
  let asked = 0;
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      const answer = robots(asked++);
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      return void res.end(answer.body);
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>page</body></html>');
  });
  closing.push(server);
  return server;
}

function crawl(identifyPages?: boolean) {
  const capture = new Capture({});
  const Crawler = withRepkitRobots(CheerioCrawler, {
    userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
    ...(identifyPages === undefined ? {} : { identifyPages }),
  });
  const crawler = new Crawler(
    {
      respectRobotsTxtFile: true,
      log: new Log({ level: LogLevel.DEBUG, logger: capture }),
      requestHandler: async () => {},
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  return { crawler, capture };
}

test('pages carry the User-Agent robots.txt was fetched with', async () => {
  const origin = await site(() => ({
    status: 200,
    body: 'User-agent: ExampleBot\nDisallow: /x\n',
  }));
  const { crawler } = crawl();
  await crawler.run([`${origin.origin}/a`, `${origin.origin}/b`]);
  const agents = origin.requests.map((r) => `${r.path} ${r.headers['user-agent']}`);
  assert.deepEqual(
    agents.sort(),
    ['/a', '/b', '/robots.txt'].map((p) => `${p} ExampleBot/1.0 (+https://example.com/bot)`),
  );
});

test("identifyPages: false keeps Crawlee's User-Agent, and says so at start", async () => {
  const origin = await site(() => ({ status: 200, body: 'User-agent: *\nAllow: /\n' }));
  const { crawler, capture } = crawl(false);
  await crawler.run([`${origin.origin}/a`]);
  const page = origin.requests.find((r) => r.path === '/a')!;
  assert.doesNotMatch(String(page.headers['user-agent']), /ExampleBot/);
  assert.ok(
    capture.lines.some(
      (l) => l.level === LogLevel.WARNING && /identifyPages: false/.test(l.message),
    ),
  );
});

test('a host held by a 503 robots.txt: one line when it is deferred (why, until when), one when it resumes', async () => {
  const origin = await site((n) =>
    n === 0
      ? { status: 503, body: '', headers: { 'retry-after': '1' } }
      : { status: 200, body: 'User-agent: *\nAllow: /\n' },
  );
  const { crawler, capture } = crawl();
  await crawler.run(Array.from({ length: 20 }, (_, i) => `${origin.origin}/p${i}`));
  const mine = capture.lines.filter(
    (l) => l.level <= LogLevel.INFO && l.message.startsWith('repkit:'),
  );
  const deferred = mine.filter((l) => l.message.includes('deferred until'));
  const resumed = mine.filter((l) => l.message.includes('resumes'));
  assert.equal(deferred.length, 1, mine.map((l) => l.message).join('\n'));
  assert.match(
    deferred[0]!.message,
    new RegExp(
      `^repkit: ${origin.origin} deferred until \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z: its robots\\.txt cannot be read`,
    ),
  );
  assert.equal(resumed.length, 1, mine.map((l) => l.message).join('\n'));
  assert.equal(resumed[0]!.message, `repkit: ${origin.origin} resumes`);
});

test('a bot wall in the robots.txt place holds the host like an outage, and the line says it is a wall', async () => {
  const origin = await site((n) =>
    n === 0
      ? {
          status: 403,
          body: '<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>',
          headers: { 'content-type': 'text/html', 'cf-mitigated': 'challenge', 'retry-after': '1' },
        }
      : { status: 200, body: 'User-agent: *\nAllow: /\n' },
  );
  const { crawler, capture } = crawl();
  await crawler.run(Array.from({ length: 5 }, (_, i) => `${origin.origin}/p${i}`));
  const mine = capture.lines.filter(
    (l) => l.level <= LogLevel.INFO && l.message.startsWith('repkit:'),
  );
  const deferred = mine.filter((l) => l.message.includes('deferred until'));
  assert.equal(deferred.length, 1, mine.map((l) => l.message).join('\n'));
  assert.match(
    deferred[0]!.message,
    /: its robots\.txt cannot be read: a bot wall answered \(cloudflare\): status 403; cf-mitigated: challenge \(the client tries again then\)$/,
  );
  // No page was requested while the wall stood: every page came after the robots.txt that
  // let it through.
  const paths = origin.requests.map((r) => r.path);
  assert.deepEqual(paths.slice(0, 2), ['/robots.txt', '/robots.txt']);
  assert.equal(paths.filter((p) => p.startsWith('/p')).length, 5);
});
