/**
 * Each robots.txt fetched once across a crawler's working set: 50,000 origins serving the
 * corpus's real files, checked twice in shuffled order by a client in its default
 * configuration (its default store, its default parsed-file cache). Origins are names
 * resolved to eight loopback servers.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MemoryStore } from '../../src/cache/index.ts';
import { classifyEdge } from '../../src/core/index.ts';
import { RobotsClient } from '../../src/fetch/index.ts';
import { clientSeam } from '../../src/fetch/internal.ts';
import { SHARED } from '../helpers/shared.ts';
import { lookupBy } from '../helpers/servers.ts';

const ORIGINS = 50_000;
const SERVERS = 8;

const corpus = readdirSync(join(SHARED, 'corpus/robots'))
  .sort()
  .map((name) => readFileSync(join(SHARED, 'corpus/robots', name)));
/**
 * Files of the corpus that are a bot wall's page (a captcha served as robots.txt): read as
 * unreachable, so their origins are asked again after the error backoff, not fetched once.
 */
const walls = new Set(
  corpus.flatMap((body, i) =>
    classifyEdge({ status: 200, headers: {}, body })?.kind === 'challenge' ? [i] : [],
  ),
);
const servers: Server[] = [];
let port = 0;
/** robots.txt requests per host. */
const asked = new Map<string, number>();

before(async () => {
  // One port on eight loopback addresses: fifty thousand connections need more source
  // ports than one address pair has.
  for (let i = 0; i < SERVERS; i++) {
    const server = createServer((req, res) => {
      const host = req.headers.host ?? '';
      asked.set(host, (asked.get(host) ?? 0) + 1);
      const n = Number(/^o(\d+)\./.exec(host)?.[1] ?? 0);
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
      res.end(corpus[n % corpus.length]);
    });
    await new Promise<void>((done) => server.listen(port, `127.0.0.${i + 1}`, done));
    port = (server.address() as AddressInfo).port;
    servers.push(server);
  }
});
after(async () => {
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
});

/** `oN.test` lives on loopback address N mod 8. */
const lookup = lookupBy((host) => {
  const n = Number(/^o(\d+)\./.exec(host)?.[1] ?? 0);
  return `127.0.0.${(n % SERVERS) + 1}`;
});

function shuffled(count: number, seed: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  let state = seed;
  for (let i = count - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

async function inParallel(order: number[], run: (n: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < order.length) await run(order[next++]!);
    }),
  );
}

test('50,000 origins of the corpus mix stay fetched once in the default configuration', async (t) => {
  const store = new MemoryStore(); // the client's default, held here to read its counters
  // Timeouts far above what 64 loopback fetches at a time need on a loaded machine: this
  // test is about fetching once, not about how fast.
  const client = new RobotsClient({
    userAgent: 'ExampleBot/1.0',
    lookup,
    store,
    timeoutMs: 120_000,
    connectTimeoutMs: 60_000,
  });
  try {
    for (const [pass, seed] of [
      [1, 7],
      [2, 11],
    ] as const) {
      await inParallel(shuffled(ORIGINS, seed), async (n) => {
        const result = await client.check(`http://o${n}.test:${port}/page/${pass}`);
        assert.notEqual(result.reason, 'robots-txt-unreachable', result.error);
        if (walls.has(n % corpus.length)) assert.equal(result.reason, 'robots-txt-challenge');
        else assert.equal(result.edge?.kind === 'challenge', false);
      });
    }
    assert.equal(asked.size, ORIGINS);
    assert.ok(walls.size > 0 && walls.size < 10, `${walls.size} walls in the corpus`);
    const refetched = [...asked].filter(
      ([host, count]) =>
        count > 1 && !walls.has(Number(/^o(\d+)\./.exec(host)?.[1]) % corpus.length),
    ).length;
    assert.equal(refetched, 0, `${refetched} robots.txt fetched more than once`);
    assert.equal(store.stats.entries, ORIGINS);
    assert.equal(store.stats.evictions, 0);
    assert.ok(store.stats.bytes < 128 * 1024 * 1024);
    t.diagnostic(
      `${ORIGINS} origins: store ${(store.stats.bytes / 2 ** 20).toFixed(1)} MiB, parsed files ${clientSeam(client).parsedUsage().origins}`,
    );
  } finally {
    await client.close();
  }
});
