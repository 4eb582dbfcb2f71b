/**
 * Bounded work per request: hostile matching inputs, CPU-heavy requests kept off the event
 * loop with a deadline and a budget, DNS that never answers, and clients that trickle.
 */
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { connect } from 'node:net';
import type { LookupFunction } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { parse } from '../../src/core/index.ts';
import { isPublicAddress, startService, type RunningService } from '../../src/server/index.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';
import { NEAR_MISS_PATH, nearMissFile } from '../helpers/hostile-files.ts';

/** Ordinary-looking rules that all share one prefix, so every URL tests every rule. */
function sharedPrefixFile(rules: number): string {
  let body = 'User-agent: *\n';
  for (let i = 0; i < rules; i++) body += `Allow: /a*${i}*\n`;
  return body;
}

let service: RunningService;
let hostile: TestServer;
before(async () => {
  const body = nearMissFile();
  hostile = await httpServer(robotsRoute((_req, res) => res.writeHead(200).end(body)));
  service = await startService({
    port: 0,
    allowPrivateAddresses: true,
    limits: { maxVerdicts: 200_000, work: { deadlineMs: 1_500 } },
  });
});
after(async () => {
  await service.close();
  await hostile.close();
});

async function post(path: string, body: unknown, base = service.url) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('hostile matching', () => {
  test('/v1/explain: a 500 KiB near-miss file against an 8 KiB path answers, and right', async () => {
    const robots = nearMissFile();
    const { status, json } = await post('/v1/explain', {
      robots,
      url: `https://example.com${NEAR_MISS_PATH}`,
      agent: 'Googlebot',
    });
    assert.equal(status, 200);
    assert.deepEqual([json.allowed, json.line], [false, robots.split('\n').length - 1]);
  });

  test('/v1/check against a large fetched file: verdicts on the event loop and on workers equal the core, single and batch', async () => {
    const robots = parse(nearMissFile());
    const paths = [NEAR_MISS_PATH, `/x${'a'.repeat(4095)}c`, '/b', `/c${'a'.repeat(4095)}c`];
    const urls = paths.map((p) => `${hostile.origin}${p}`);
    // With no event-loop allowance the file's first check sends it to the workers: the
    // checks after it are answered there (the default service answers these on the loop).
    const workers = await startService({
      port: 0,
      allowPrivateAddresses: true,
      limits: { largeFileLoopMs: 0 },
    });
    try {
      for (const base of [service.url, workers.url]) {
        for (let round = 0; round < 2; round++) {
          const single = await fetch(
            `${base}/v1/check?url=${encodeURIComponent(urls[0]!)}&agent=Googlebot`,
          );
          const one = (await single.json()) as { allowed: boolean; line: number };
          const expected0 = robots.explain(urls[0]!, 'Googlebot');
          assert.deepEqual([one.allowed, one.line], [expected0.allowed, expected0.line]);
        }
        const { json } = await post('/v1/check', { urls, agent: 'Googlebot' }, base);
        const results = json.results as { allowed: boolean; line: number }[];
        results.forEach((r, i) => {
          const expected = robots.explain(urls[i]!, 'Googlebot');
          assert.deepEqual([r.allowed, r.line], [expected.allowed, expected.line], paths[i]);
        });
      }
    } finally {
      await workers.close();
    }
  });
});

describe('CPU-heavy requests', () => {
  test('a diff past its deadline is a 413, and /healthz answers while it runs', async () => {
    const old = sharedPrefixFile(30_000);
    const urls = Array.from(
      { length: 1_000 },
      (_, i) => `https://example.com/a${'b'.repeat(500)}${i}`,
    );
    const diff = post('/v1/diff', {
      old,
      new: old + 'Disallow: /z\n',
      urls,
      agents: ['a', 'b', 'c', 'd', 'e'],
    });
    await new Promise((done) => setTimeout(done, 300)); // the diff is running now
    // /healthz is answered while the diff still runs on its worker: first, whatever the
    // machine's speed.
    const health = fetch(`${service.url}/healthz`);
    const first = await Promise.race([health.then(() => 'health'), diff.then(() => 'diff')]);
    assert.equal(first, 'health', '/healthz waited for the diff');
    assert.equal((await health).status, 200);
    const { status, json } = await diff;
    assert.equal(status, 413);
    assert.equal(json.error, 'too-much-work');
    assert.match(String(json.message), /1500 ms/);
  });

  test('a request asking for more verdicts than the budget is refused before any work', async () => {
    const urls = Array.from({ length: 1_000 }, (_, i) => `https://example.com/${i}`);
    const agents = Array.from({ length: 50 }, (_, i) => `Bot${i}`);
    const limited = await startService({
      port: 0,
      allowPrivateAddresses: true,
      limits: { maxVerdicts: 10_000 },
    });
    try {
      const { status, json } = await post(
        '/v1/diff',
        { old: '', new: '', urls, agents },
        limited.url,
      );
      assert.equal(status, 413);
      assert.equal(json.error, 'too-much-work');
      assert.match(String(json.message), /100000 verdicts; one request may ask for 10000/);
    } finally {
      await limited.close();
    }
  });
});

describe('DNS that never answers', () => {
  test('cached origins need no DNS, and lookups run two at a time with a time limit', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    let siteLookups = 0;
    const pending = new Set<NodeJS.Timeout>();
    const lookup: LookupFunction = (hostname, _options, callback) => {
      const done = callback as unknown as (e: Error | null, a?: LookupAddress[]) => void;
      if (hostname === 'site.test') {
        siteLookups++;
        return done(null, [{ address: '127.0.0.2', family: 4 }]);
      }
      // A name server that never answers: getaddrinfo gives up on its own after a while.
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const timer = setTimeout(() => {
        pending.delete(timer);
        inFlight--;
        done(Object.assign(new Error('EAI_AGAIN'), { code: 'EAI_AGAIN' }));
      }, 3_000);
      pending.add(timer);
    };
    const site = await httpServer(
      robotsRoute((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /no\n')),
      '127.0.0.2',
    );
    const dnsService = await startService({
      port: 0,
      lookup,
      dns: { timeoutMs: 500 },
      allowAddress: (a) => a === '127.0.0.2' || isPublicAddress(a),
    });
    try {
      const port = new URL(site.origin).port;
      const page = `http://site.test:${port}/no/x`;
      const first = await fetch(`${dnsService.url}/v1/check?url=${encodeURIComponent(page)}`);
      assert.equal(((await first.json()) as { allowed: boolean }).allowed, false);
      const lookupsAfterFirst = siteLookups;

      const hanging = Array.from({ length: 200 }, (_, i) => `http://h${i}.hang.test/`);
      const batch = post('/v1/check', { urls: hanging }, dnsService.url);
      await new Promise((done) => setTimeout(done, 200));
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        const cached = await fetch(`${dnsService.url}/v1/check?url=${encodeURIComponent(page)}`);
        const json = (await cached.json()) as { allowed: boolean; source: string };
        assert.deepEqual([json.allowed, json.source], [false, 'cache']);
        // The hanging lookups take 500 ms each, two at a time: 50 s for the batch.
        assert.ok(Date.now() - started < 10_000, 'a cached check does not wait for DNS');
      }
      assert.equal(siteLookups, lookupsAfterFirst, 'no DNS for a cached origin');
      assert.ok(mostInFlight <= 2, `${mostInFlight} lookups ran at once`);
      const results = (await batch).json.results as { allowed: boolean; error?: string }[];
      assert.equal(results.length, 200);
      assert.ok(results.every((r) => !r.allowed && /DNS|EAI_AGAIN/.test(r.error ?? '')));
    } finally {
      for (const timer of pending) clearTimeout(timer);
      await dnsService.close();
      await site.close();
    }
  });
});

describe('slow clients', () => {
  test('a body trickled a byte at a time is cut off at the request timeout', async () => {
    const slow = await startService({
      port: 0,
      allowPrivateAddresses: true,
      limits: { requestTimeoutMs: 1_000, headersTimeoutMs: 1_000 },
    });
    try {
      const { hostname, port } = new URL(slow.url);
      const socket = connect(Number(port), hostname);
      await new Promise((done) => socket.once('connect', done));
      socket.write(
        'POST /v1/lint HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      );
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      const trickle = setInterval(() => socket.writable && socket.write(' '), 200);
      const started = Date.now();
      await new Promise((done) => socket.once('close', done));
      clearInterval(trickle);
      const elapsed = Date.now() - started;
      // Cut off at its 1 s limit: without it the trickle would go on as long as the test.
      assert.ok(elapsed < 15_000, `closed after ${elapsed} ms`);
      assert.match(answer, /^HTTP\/1\.1 408/);
      assert.deepEqual(bodyOf(answer), {
        error: 'request-timeout',
        message: 'the request did not arrive within the time limit',
      });
    } finally {
      await slow.close();
    }
  });

  test('what Node refuses before routing answers in the API’s shape too: 431 and 400', async () => {
    const { hostname, port } = new URL(service.url);
    // A URL over Node's 16 KiB for the request line and headers; then bytes that are not HTTP.
    const requests = [
      `GET /v1/lint?robots=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      'NOT HTTP AT ALL\r\n\r\n',
    ];
    const answers: string[] = [];
    for (const request of requests) {
      const socket = connect(Number(port), hostname);
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      const closed = new Promise((done) => socket.once('close', done));
      socket.on('error', () => {});
      socket.write(request);
      await closed;
      answers.push(answer);
    }
    assert.match(answers[0]!, /^HTTP\/1\.1 431 /);
    assert.deepEqual(bodyOf(answers[0]!), {
      error: 'headers-too-large',
      message: 'the request line and headers are over 16384 bytes',
    });
    assert.match(answers[1]!, /^HTTP\/1\.1 400 /);
    assert.deepEqual(bodyOf(answers[1]!), {
      error: 'bad-request',
      message: 'the request is not valid HTTP/1.1',
    });
  });
});

/** The JSON body of a raw HTTP answer. */
function bodyOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}
