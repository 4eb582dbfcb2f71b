/**
 * Page fetches (for page rules and usage answers) are bounded: one fetch for callers asking
 * the same page at once, at most two at a time per origin, sixteen in all.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { RobotsClient } from '../../src/fetch/index.ts';
import { Limiter } from '../../src/fetch/net/limiter.ts';
import { startService } from '../../src/server/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

/** A site whose pages answer after 200 ms, noting how many were being answered at once. */
async function slowSite(): Promise<TestServer & { most: () => number; pages: () => number }> {
  let now = 0;
  let most = 0;
  let pages = 0;
  const server = await httpServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
    if (req.url === '/.well-known/tdmrep.json') return void res.writeHead(404).end();
    pages++;
    most = Math.max(most, ++now);
    setTimeout(() => {
      now--;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head></head></html>');
    }, 200);
  });
  closing.push(server);
  return Object.assign(server, { most: () => most, pages: () => pages });
}

test('callers asking the same page at once share one fetch', async () => {
  const site = await slowSite();
  const client = new RobotsClient({ userAgent: 'bot' });
  closing.push(client);
  const outcomes = await Promise.all(
    Array.from({ length: 50 }, () => client.fetchPage(`${site.origin}/a`)),
  );
  assert.ok(outcomes.every((o) => o.status === 200));
  assert.equal(site.pages(), 1);
});

test('different pages of one origin: at most two at a time, all answered', async () => {
  const site = await slowSite();
  const client = new RobotsClient({ userAgent: 'bot' });
  closing.push(client);
  const outcomes = await Promise.all(
    Array.from({ length: 12 }, (_, i) => client.fetchPage(`${site.origin}/p${i}`)),
  );
  assert.ok(outcomes.every((o) => o.status === 200));
  assert.equal(site.pages(), 12);
  assert.equal(site.most(), 2);
});

test('/v1/usage: 200 concurrent requests for one page make one page fetch', async () => {
  // The page is held until all 200 requests have reached the service (and a moment more for
  // the last to join the fetch), so the test does not depend on how fast a loaded machine
  // delivers them: an earlier version with a 200 ms page saw 3 fetches when arrivals spread.
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  let pages = 0;
  const site = await httpServer(async (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
    if (req.url === '/.well-known/tdmrep.json') return void res.writeHead(404).end();
    pages++;
    await released;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head></head></html>');
  });
  closing.push(site);
  const service = await startService({ port: 0, allowAddress: () => true });
  closing.push(service);
  const url = `${service.url}/v1/usage?url=${encodeURIComponent(`${site.origin}/a`)}&agent=bot`;
  // The robots.txt and tdmrep.json first, so that every request goes on to the page at once.
  await fetch(`${service.url}/v1/check?url=${encodeURIComponent(`${site.origin}/x`)}&agent=bot`);
  let arrived = 0;
  service.app.server.on('request', (req) => {
    if (req.url?.startsWith('/v1/usage') && ++arrived === 200) setTimeout(release, 150);
  });
  const answers = await Promise.all(Array.from({ length: 200 }, () => fetch(url)));
  assert.ok(answers.every((a) => a.status === 200));
  assert.equal(pages, 1);
});

test('past the waiting places a page fetch is refused at once, as an error outcome', async () => {
  const limiter = new Limiter(1, 1, 1);
  let release!: () => void;
  const first = limiter.run(
    'o',
    () => new Promise<string>((done) => (release = () => done('first'))),
    () => 'refused',
  );
  const second = limiter.run(
    'o',
    async () => 'second',
    () => 'refused',
  );
  const third = await limiter.run(
    'o',
    async () => 'third',
    () => 'refused',
  );
  assert.equal(third, 'refused');
  release();
  assert.deepEqual(await Promise.all([first, second]), ['first', 'second']);
  // Another key waits for the total, then runs.
  assert.equal(
    await limiter.run(
      'p',
      async () => 'p',
      () => 'refused',
    ),
    'p',
  );
});
