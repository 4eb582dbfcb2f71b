/**
 * GET /v1/usage: the combined answer from the service, and its page and tdmrep.json fetches
 * held by the same address guard as robots.txt (a page redirecting into the private network
 * is never followed there).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { UsageAnswer } from '../../src/fetch/index.ts';
import { isPublicAddress, startService, type RunningService } from '../../src/server/index.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

let internal: TestServer;
let site: TestServer;
let redirecting: TestServer;
let service: RunningService;

before(async () => {
  internal = await httpServer(
    (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html', 'tdm-reservation': '0' })
        .end('<meta name="robots" content="noindex">secret'),
    '127.0.0.1',
  );
  site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res
        .writeHead(200)
        .end('User-agent: *\nDisallow: /blocked/\nContent-Usage: /articles/ train-ai=n\n');
    }
    if (req.url === '/.well-known/tdmrep.json') {
      return void res.writeHead(200).end('[{"location": "/articles/", "tdm-reservation": 1}]');
    }
    if (req.url === '/go-inside') {
      return void res.writeHead(302, { location: `${internal.origin}/page` }).end();
    }
    res
      .writeHead(200, { 'content-type': 'text/html', 'x-robots-tag': 'noai' })
      .end('<html><head><meta name="robots" content="nosnippet"></head></html>');
  }, '127.0.0.2');
  // Its tdmrep.json redirects into a path its robots.txt disallows.
  redirecting = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res.writeHead(200).end('User-agent: *\nDisallow: /hidden/\n');
    }
    if (req.url === '/.well-known/tdmrep.json') {
      return void res.writeHead(301, { location: '/hidden/tdmrep.json' }).end();
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>page</title>');
  }, '127.0.0.3');
  const publicForTest = (address: string) =>
    address === '127.0.0.2' || address === '127.0.0.3' || isPublicAddress(address);
  service = await startService({ port: 0, allowAddress: publicForTest });
});
after(async () => {
  await service.close();
  await Promise.all([internal.close(), site.close(), redirecting.close()]);
});

async function usage(path: string, agent = 'ExampleBot') {
  const response = await fetch(
    `${service.url}/v1/usage?url=${encodeURIComponent(`${site.origin}${path}`)}&agent=${agent}`,
  );
  return { status: response.status, json: (await response.json()) as UsageAnswer };
}

test('one answer: fetch, index, train-ai, search and TDM, each with its source', async () => {
  const { status, json } = await usage('/articles/a');
  assert.equal(status, 200);
  assert.deepEqual([json.fetch.may, json.index.may], [true, true]);
  assert.equal(json['train-ai'].preference, 'disallowed');
  assert.deepEqual(
    json['train-ai'].statements.map((s) => s.source.kind),
    ['robots-txt', 'header', 'tdmrep'],
  );
  assert.equal(json.search.preference, 'unknown');
  assert.equal(json.tdm.reservation, 'reserved');
  assert.equal(json.tdm.decidedBy?.kind, 'tdmrep');
  assert.deepEqual(json.page, { status: 200 });
  assert.deepEqual(json.agent, ['ExampleBot']);
});

test('a blocked URL: no page fetch, no preferences', async () => {
  const before = site.requests.length;
  const { json } = await usage('/blocked/x');
  assert.equal(json.fetch.may, false);
  assert.deepEqual(json.fetch.source, { kind: 'robots-txt', line: 2, text: 'Disallow: /blocked/' });
  assert.equal(json.page, undefined);
  assert.ok(site.requests.slice(before).every((r) => !r.path.startsWith('/blocked/')));
});

test('a page redirecting into the private network is not followed there', async () => {
  const { status, json } = await usage('/go-inside');
  assert.equal(status, 200);
  // The hop is checked first against its own robots.txt, which the guard refuses to fetch.
  assert.equal(json.page?.refusedHop?.url, `${internal.origin}/page`);
  assert.match(json.page?.error ?? '', /refused|not allowed|private|address/i);
  assert.equal(json.index.may, false);
  assert.equal(json.tdm.reservation, 'unset', 'nothing read from the internal answer');
  assert.equal(internal.requests.length, 0, 'the internal server was never reached');
});

test('a tdmrep.json redirect into a disallowed path is named, and not followed', async () => {
  const response = await fetch(
    `${service.url}/v1/usage?url=${encodeURIComponent(`${redirecting.origin}/a`)}&agent=ExampleBot`,
  );
  const json = (await response.json()) as UsageAnswer;
  assert.equal(response.status, 200);
  assert.equal(json.tdm.file?.url, `${redirecting.origin}/.well-known/tdmrep.json`);
  assert.equal(json.tdm.file?.status, 301);
  assert.equal(json.tdm.file?.refusedHop?.url, `${redirecting.origin}/hidden/tdmrep.json`);
  assert.match(json.tdm.file?.refusedHop?.reason ?? '', /disallows/);
  assert.ok(redirecting.requests.every((r) => !r.path.startsWith('/hidden/')));
  assert.deepEqual(json.page, { status: 200 });
});

test('bad input is a 400 with the field named', async () => {
  const response = await fetch(`${service.url}/v1/usage?url=not-a-url`);
  assert.equal(response.status, 400);
  const body = (await response.json()) as { field?: string };
  assert.equal(body.field, 'querystring.url');
});
