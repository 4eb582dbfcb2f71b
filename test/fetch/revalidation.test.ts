/**
 * Conditional revalidation, as Google's crawlers do it: a stale robots.txt with an ETag or a
 * Last-Modified is asked for with If-None-Match / If-Modified-Since; a 304 renews the copy
 * held (no body sent), through the store every client shares, and is reported as such.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { MemoryStore } from '../../src/cache/index.ts';
import { RobotsClient, type FetchReport } from '../../src/fetch/index.ts';
import { httpServer, TestClock, type TestServer } from '../helpers/servers.ts';

const HOUR = 3_600_000;
const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const thing of closing.splice(0)) await thing.close();
});

/** A site whose robots.txt is `file.body`, validated by `file.etag` and `file.modified`. */
async function site(file: { body: string; etag?: string; modified?: string }) {
  const server: TestServer = await httpServer((req, res) => {
    if (req.url !== '/robots.txt') return void res.writeHead(404).end();
    const etag = file.etag;
    const sameTag = etag !== undefined && req.headers['if-none-match'] === etag;
    const sameDate =
      etag === undefined &&
      file.modified !== undefined &&
      req.headers['if-modified-since'] === file.modified;
    const validators = {
      'cache-control': 'max-age=3600',
      ...(etag ? { etag } : {}),
      ...(file.modified ? { 'last-modified': file.modified } : {}),
    };
    if (sameTag || sameDate) return void res.writeHead(304, validators).end();
    res.writeHead(200, { 'content-type': 'text/plain', ...validators }).end(file.body);
  });
  closing.push(server);
  return server;
}

function client(clock: TestClock, reports: FetchReport[], store = new MemoryStore()) {
  const made = new RobotsClient({
    userAgent: 'ExampleBot/1.0',
    now: clock.now,
    store,
    onFetch: (report) => reports.push(report),
  });
  closing.push(made);
  return made;
}

test('an ETag: the stale copy is revalidated, a 304 renews it without a body, a change is fetched whole', async () => {
  const file = { body: 'User-agent: *\nDisallow: /private/\n', etag: '"v1"' };
  const server = await site(file);
  const clock = new TestClock();
  const reports: FetchReport[] = [];
  const robots = client(clock, reports);
  assert.equal((await robots.check(`${server.origin}/private/a`)).allowed, false);
  clock.advance(HOUR + 1);
  // Stale: asked again conditionally, answered 304; the rules are the copy's.
  const renewed = await robots.check(`${server.origin}/private/a`);
  assert.equal(renewed.allowed, false);
  assert.equal(renewed.line, 2);
  assert.equal(renewed.status, 200);
  assert.deepEqual(
    server.requests.map((r) => r.headers['if-none-match']),
    [undefined, '"v1"'],
  );
  assert.deepEqual(
    reports.map((r) => [r.status, r.notModified]),
    [
      [200, undefined],
      [304, true],
    ],
  );
  // Renewed for the 304's lifetime: fresh again, nothing asked.
  clock.advance(HOUR - 1);
  await robots.check(`${server.origin}/x`);
  assert.equal(server.requests.length, 2);
  // The file changes: its new ETag does not match, the new file is fetched and read.
  file.body = 'User-agent: *\nDisallow: /\n';
  file.etag = '"v2"';
  clock.advance(2);
  assert.equal((await robots.check(`${server.origin}/x`)).allowed, false);
  assert.deepEqual(
    reports.map((r) => r.status),
    [200, 304, 200],
  );
});

test('Last-Modified alone: If-Modified-Since; and a second client on the same store revalidates the copy the first fetched', async () => {
  const modified = 'Wed, 01 Jan 2025 00:00:00 GMT';
  const server = await site({ body: 'User-agent: *\nDisallow: /old/\n', modified });
  const clock = new TestClock();
  const store = new MemoryStore({ now: clock.now });
  const first: FetchReport[] = [];
  const second: FetchReport[] = [];
  assert.equal((await client(clock, first, store).check(`${server.origin}/old/a`)).allowed, false);
  clock.advance(HOUR + 1);
  const other = client(clock, second, store);
  assert.equal((await other.check(`${server.origin}/old/a`)).allowed, false);
  assert.deepEqual(
    server.requests.map((r) => r.headers['if-modified-since']),
    [undefined, modified],
  );
  assert.equal(second[0]?.notModified, true);
  // The renewed copy is in the store: a third client finds it fresh, and asks nothing.
  clock.advance(HOUR - 1);
  assert.equal((await client(clock, [], store).check(`${server.origin}/old/b`)).allowed, false);
  assert.equal(server.requests.length, 2);
});

test('a copy without validators is fetched whole; a server that answers 304 unasked is not taken for a renewal', async () => {
  let unasked = false;
  const server: TestServer = await httpServer((req, res) => {
    if (unasked) return void res.writeHead(304).end();
    res.writeHead(200, { 'cache-control': 'max-age=3600' }).end('User-agent: *\nDisallow: /a/\n');
  });
  closing.push(server);
  const clock = new TestClock();
  const reports: FetchReport[] = [];
  const robots = client(clock, reports);
  await robots.check(`${server.origin}/a/x`);
  clock.advance(HOUR + 1);
  unasked = true;
  const result = await robots.check(`${server.origin}/a/x`);
  assert.equal(server.requests[1]?.headers['if-none-match'], undefined);
  assert.equal(reports[1]?.notModified, undefined);
  // No validators were sent: a 304 is a redirect without a Location, not "unchanged".
  assert.equal(result.status, 304);
});
