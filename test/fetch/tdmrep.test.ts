/**
 * TDMRep files through the client: fetched and cached like robots.txt, in the same store;
 * pages fetched for their rules with repeated header fields kept apart.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { MemoryStore } from '../../src/cache/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { pagePolicy } from '../../src/meta/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

const servers: TestServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function site(tdmrep: () => { status: number; body?: string }): Promise<TestServer> {
  const server = await httpServer((req, res) => {
    if (req.url === '/.well-known/tdmrep.json') {
      const answer = tdmrep();
      return void res.writeHead(answer.status).end(answer.body ?? '');
    }
    if (req.url === '/page') {
      // Two X-Robots-Tag fields: the second starts over with no crawler scope.
      res.setHeader('x-robots-tag', ['googlebot: noindex', 'nofollow']);
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>t</title>');
    }
    res.writeHead(404).end();
  });
  servers.push(server);
  return server;
}

test('fetched once, kept in the store beside robots.txt, read by another client without a fetch', async () => {
  const origin = await site(() => ({
    status: 200,
    body: '[{"location": "/", "tdm-reservation": 1}]',
  }));
  const store = new MemoryStore();
  const a = new RobotsClient({ userAgent: 'ExampleBot/1.0', store });
  const answers = await Promise.all([1, 2, 3].map((i) => a.tdmrepFor(`${origin.origin}/p${i}`)));
  assert.ok(answers.every((s) => s.file?.match(`${origin.origin}/x`)?.reservation === 'reserved'));
  assert.equal(origin.requests.filter((r) => r.path === '/.well-known/tdmrep.json').length, 1);
  assert.equal((await store.get(`${origin.origin}#tdmrep`))?.status, 200);
  const b = new RobotsClient({ userAgent: 'ExampleBot/1.0', store });
  assert.equal((await b.tdmrepFor(`${origin.origin}/`)).file?.rules.length, 1);
  assert.equal(origin.requests.length, 1, 'the second client used the stored copy');
  await a.close();
  await b.close();
});

test('no file (404), an unreachable one (503) and one that is not JSON', async () => {
  let answer = { status: 404 } as { status: number; body?: string };
  const origin = await site(() => answer);
  let now = 1_000_000;
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0', now: () => now });
  assert.equal((await client.tdmrepFor(`${origin.origin}/`)).file, undefined);
  now += 2 * 86_400_000;
  answer = { status: 503 };
  const down = await client.tdmrepFor(`${origin.origin}/`);
  assert.deepEqual([down.entry.outcome, down.file], ['error', undefined]);
  now += 2 * 86_400_000;
  answer = { status: 200, body: '<!doctype html><p>hello</p>' };
  const html = await client.tdmrepFor(`${origin.origin}/`);
  assert.deepEqual(html.file?.rules, []);
  assert.match(html.file!.problems[0]!, /not JSON/);
  await client.close();
});

test('fetchPage keeps repeated rule headers apart, so a crawler scope does not leak', async () => {
  const origin = await site(() => ({ status: 404 }));
  const client = new RobotsClient({ userAgent: 'ExampleBot/1.0' });
  const page = await client.fetchPage(`${origin.origin}/page`);
  assert.equal(page.status, 200);
  assert.equal(page.headers['x-robots-tag'], 'googlebot: noindex\nnofollow');
  const other = await pagePolicy({ headers: page.headers }, 'otherbot');
  assert.deepEqual([other.policy.index, other.policy.follow], [true, false]);
  const google = await pagePolicy({ headers: page.headers }, 'googlebot');
  assert.deepEqual([google.policy.index, google.policy.follow], [false, false]);
  await client.close();
});
