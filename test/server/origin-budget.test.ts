/**
 * Each client's budget of new origins: the robots.txt fetches its requests may start a minute.
 * Past it the service answers 429 with Retry-After and fetches nothing; answers from the
 * cache cost nothing; another client has a budget of its own.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { startService, type RunningService } from '../../src/server/index.ts';
import { httpServer, lookupTo, type TestServer } from '../helpers/servers.ts';

let site: TestServer;
let service: RunningService;
/** robots.txt requests the site received, by host. */
const fetched: string[] = [];

/** Every `*.budget.test` name is the loopback site. */
const lookup = lookupTo('127.0.0.1');

before(async () => {
  site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') fetched.push(String(req.headers.host).split(':')[0]!);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /p\n');
  });
  service = await startService({
    port: 0,
    allowAddress: () => true,
    lookup,
    newOriginsPerMinute: 5,
  });
});
after(async () => {
  await service.close();
  await site.close();
});

/** A request from `localAddress` (127.0.0.x: each its own client). */
function ask(
  path: string,
  localAddress: string,
  body?: unknown,
): Promise<{ status: number; retryAfter: string | undefined; json: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const req = httpRequest(
      `${service.url}${path}`,
      {
        localAddress,
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () =>
          done({
            status: res.statusCode!,
            retryAfter: res.headers['retry-after'] as string | undefined,
            json: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', fail);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const port = () => new URL(site.origin).port;
const check = (n: number) =>
  `/v1/check?url=${encodeURIComponent(`http://o${n}.budget.test:${port()}/x`)}`;

test('past its budget of new origins a client gets 429 with Retry-After, and nothing is fetched', async () => {
  for (let n = 0; n < 5; n++) assert.equal((await ask(check(n), '127.0.0.1')).status, 200, `o${n}`);
  const refused = await ask(check(5), '127.0.0.1');
  assert.equal(refused.status, 429);
  assert.equal(refused.json['error'], 'origin-budget');
  assert.match(String(refused.json['message']), /5 robots\.txt fetches a minute/);
  // One origin comes back every 12 s at 5 a minute.
  assert.ok(
    Number(refused.retryAfter) >= 1 && Number(refused.retryAfter) <= 12,
    refused.retryAfter,
  );
  assert.equal(fetched.length, 5, 'the refused origin was not fetched');
  assert.ok(!fetched.includes('o5.budget.test'));

  // An origin in the cache costs nothing, however often it is asked about.
  for (let i = 0; i < 10; i++) assert.equal((await ask(check(2), '127.0.0.1')).status, 200);

  // Another client has its own budget; a batch on one new origin costs it one fetch.
  const batch = await ask('/v1/check', '127.0.0.2', {
    urls: [0, 1, 2, 3].map((i) => `http://o9.budget.test:${port()}/p${i}`),
  });
  assert.equal(batch.status, 200);
  for (let n = 10; n < 14; n++) assert.equal((await ask(check(n), '127.0.0.2')).status, 200);
  assert.equal((await ask(check(14), '127.0.0.2')).status, 429);
  assert.equal(fetched.length, 10);
});

test("the bytes a client's fetches add to the store are budgeted too: large files run it out", async (t) => {
  // A site serving a different 500 KiB robots.txt for every origin, as an attacker's would.
  const big = await httpServer((req, res) => {
    const fill = `# ${String(req.headers.host)} ${'x'.repeat(500 * 1024)}\n`;
    res
      .writeHead(200, { 'content-type': 'text/plain' })
      .end(`User-agent: *\nDisallow: /p\n${fill}`);
  });
  const bounded = await startService({
    port: 0,
    allowAddress: () => true,
    lookup,
    newOriginsPerMinute: 1_000,
    storeBytesPerMinute: 2 * 1024 * 1024,
  });
  t.after(async () => {
    await bounded.close();
    await big.close();
  });
  const bigPort = new URL(big.origin).port;
  const statuses: number[] = [];
  let refused: Record<string, unknown> | undefined;
  for (let n = 0; n < 10 && !refused; n++) {
    const answer = await fetch(
      `${bounded.url}/v1/check?url=${encodeURIComponent(`http://b${n}.budget.test:${bigPort}/x`)}`,
    );
    statuses.push(answer.status);
    if (answer.status === 429) refused = (await answer.json()) as Record<string, unknown>;
    else await answer.arrayBuffer();
  }
  // About 680 KB a file as stored (base64): the fourth goes past 2 MiB.
  assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
  assert.equal(refused?.['error'], 'origin-budget');
  assert.match(
    String(refused?.['message']),
    /may add 2 MiB of robots\.txt files to the store a minute/,
  );
});
