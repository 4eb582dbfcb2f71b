/**
 * RedisStore on a real Redis Cluster (three masters started on loopback for this file): the
 * store contract, keys and leases spread over slots on different nodes, and two crawler
 * processes on the cluster fetching each origin exactly once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createClient } from 'redis';
import { RedisStore } from '../../src/cache/redis-entry.ts';
import { startCluster, type LocalCluster } from '../helpers/redis-cluster.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';
import { startWorker, stopWorkers } from '../helpers/fleet.ts';
import { describeStoreContract, sampleEntry } from './store-contract.ts';

let cluster: LocalCluster;
const servers: TestServer[] = [];
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  stopWorkers();
  await Promise.all(servers.map((s) => s.close()));
  // The cluster's servers and their directory go with it: no key outlives the file.
  await cluster?.stop();
});

function clusterStore(prefix = `repkit-test-${randomUUID().slice(0, 8)}`): RedisStore {
  return new RedisStore({
    cluster: { rootNodes: cluster.urls.map((url) => ({ url })) },
    prefix,
    onWarning: () => {},
  });
}

/** Keys held by each master. */
async function keysPerNode(): Promise<number[]> {
  return Promise.all(
    cluster.urls.map(async (url) => {
      const node = createClient({ url });
      await node.connect();
      const size = await node.dbSize();
      await node.close();
      return size;
    }),
  );
}

describeStoreContract(
  'RedisStore on a Redis Cluster',
  async () => {
    const store = clusterStore();
    await store.ready();
    return { store, advance: (ms) => new Promise((done) => setTimeout(done, ms)) };
  },
  { shared: true },
);

describe('RedisStore on a Redis Cluster: slots', () => {
  test('entries, leases and turns of many origins land on every node and all work', async () => {
    const store = clusterStore('repkit-slots');
    await store.ready();
    const origins = Array.from({ length: 60 }, (_, i) => `https://site-${i}.example`);
    for (const origin of origins) {
      await store.set(origin, sampleEntry({ robotsUrl: `${origin}/robots.txt` }), 60_000);
    }
    const spread = await keysPerNode();
    assert.ok(
      spread.every((n) => n > 0),
      `keys on every master: ${spread.join(', ')}`,
    );
    for (const origin of origins) {
      assert.equal((await store.get(origin))?.robotsUrl, `${origin}/robots.txt`);
    }
    const leases = await Promise.all(origins.map((o) => store.acquireLease(o, 10_000)));
    assert.ok(leases.every(Boolean), 'a lease for every origin, whatever its slot');
    assert.ok(
      (await Promise.all(origins.map((o) => store.acquireLease(o, 10_000)))).every((l) => !l),
    );
    await Promise.all(leases.map((l) => l!.release()));
    assert.equal(await store.takeTurn(origins[7]!, 5_000), 0);
    assert.ok((await store.takeTurn(origins[7]!, 5_000)) > 0);
    for (const origin of origins) await store.delete(origin);
    await store.close();
  });

  test('two crawler processes on one cluster fetch each origin exactly once', async () => {
    const counts = new Map<number, number>();
    const origins: string[] = [];
    for (let i = 0; i < 20; i++) {
      const server = await httpServer((req, res) => {
        if (req.url !== '/robots.txt') return void res.writeHead(404).end();
        counts.set(i, (counts.get(i) ?? 0) + 1);
        setTimeout(() => res.writeHead(200).end(`User-agent: *\nDisallow: /p${i}/\n`), 200);
      });
      servers.push(server);
      origins.push(server.origin);
    }
    const urls = origins.flatMap((origin, i) => [`${origin}/p${i}/x`, `${origin}/open`]);
    const config = { cluster: cluster.urls, prefix: 'repkit-fleet', urls };
    const results = await Promise.all(
      [startWorker(config), startWorker(config)].map((w) => w.result),
    );
    for (const result of results) {
      assert.deepEqual(
        result.map((r) => r.allowed),
        urls.map((_, k) => k % 2 === 1),
      );
    }
    assert.deepEqual(
      [...counts.values()],
      origins.map(() => 1),
      'one fetch per origin for the two processes',
    );
    assert.equal(counts.size, origins.length);
  });
});

describe('RedisStore on a Redis Cluster: one master hung', () => {
  test("a stopped master's keys answer from the fallback at once after a few timeouts; the others' from Redis; one probe finds it back", async (t) => {
    const warnings: string[] = [];
    const prefix = `repkit-hung-${randomUUID().slice(0, 8)}`;
    // Long enough that no call of a loaded machine takes it unless it waits on the node.
    const timeoutMs = 1_000;
    const store = new RedisStore({
      cluster: { rootNodes: cluster.urls.map((url) => ({ url })) },
      prefix,
      timeoutMs,
      onWarning: (m) => warnings.push(m),
    });
    t.after(() => store.close().catch(() => {}));
    await store.ready();
    const origins = Array.from({ length: 90 }, (_, i) => `https://hung-${i}.example`);
    for (const origin of origins)
      await store.set(origin, sampleEntry({ robotsUrl: `${origin}/robots.txt` }), 60_000);
    // Which keys the stopped master holds: a key of another node answers MOVED there.
    const raw = createClient({ url: cluster.urls[0]!, socket: { reconnectStrategy: false } });
    raw.on('error', () => {});
    t.after(() => raw.close().catch(() => {}));
    await raw.connect();
    const onStopped = new Set<string>();
    for (const origin of origins) {
      try {
        await raw.get(`${prefix}:v2:entry:${origin}`);
        onStopped.add(origin);
      } catch {
        // held by another master
      }
    }
    assert.ok(onStopped.size > 10 && onStopped.size < 80, `${onStopped.size} keys on master 0`);

    cluster.signal(0, 'SIGSTOP');
    try {
      // Every key, ten rounds. Without a breaker for the node, each call for one of its keys
      // waits the whole timeout, every time.
      const slow: string[] = [];
      for (let round = 0; round < 10; round++) {
        for (const origin of origins) {
          const start = performance.now();
          assert.ok(await store.get(origin), origin);
          if (performance.now() - start > timeoutMs * 0.8) slow.push(origin);
        }
      }
      assert.ok(slow.length <= 3, `${slow.length} calls waited their timeout`);
      assert.ok(
        slow.every((origin) => onStopped.has(origin)),
        'only the stopped master waits',
      );
      assert.equal(warnings.length, 1, warnings.join('\n'));
      // The live masters' keys are still read from Redis: a value written there by another
      // client is what the store answers.
      const live = origins.find((origin) => !onStopped.has(origin))!;
      const changed = JSON.stringify(sampleEntry({ robotsUrl: `${live}/robots.txt`, status: 299 }));
      let written = false;
      for (const url of cluster.urls.slice(1)) {
        const node = createClient({ url, socket: { reconnectStrategy: false } });
        node.on('error', () => {});
        await node.connect();
        try {
          await node.set(`${prefix}:v2:entry:${live}`, changed, { PX: 60_000 });
          written = true;
        } catch {
          // MOVED: the key is the other live master's
        }
        await node.close().catch(() => {});
      }
      assert.ok(written);
      assert.equal((await store.get(live))?.status, 299);
    } finally {
      cluster.signal(0, 'SIGCONT');
    }
    // One probe finds the master back: its keys come from Redis again.
    const back = onStopped.values().next().value!;
    await raw.set(
      `${prefix}:v2:entry:${back}`,
      JSON.stringify(sampleEntry({ robotsUrl: `${back}/robots.txt`, status: 298 })),
      { PX: 60_000 },
    );
    const start = Date.now();
    while ((await store.get(back))?.status !== 298 && Date.now() - start < 30_000) {
      await new Promise((done) => setTimeout(done, 50));
    }
    assert.equal((await store.get(back))?.status, 298, 'read from the master again');
  });
});

describe('RedisStore on a Redis Cluster: one master lost', () => {
  test("only the lost master's keys fall back; one warning for the outage, not one per call", async (t) => {
    const warnings: string[] = [];
    const prefix = `repkit-lost-${randomUUID().slice(0, 8)}`;
    const store = new RedisStore({
      cluster: { rootNodes: cluster.urls.slice(1).map((url) => ({ url })) },
      prefix,
      timeoutMs: 1_000,
      onWarning: (m) => warnings.push(m),
    });
    t.after(() => store.close().catch(() => {}));
    await store.ready();
    const origins = Array.from({ length: 90 }, (_, i) => `https://lost-${i}.example`);
    for (const origin of origins)
      await store.set(origin, sampleEntry({ robotsUrl: `${origin}/robots.txt` }), 60_000);
    await cluster.kill(0);
    // Calls for every key, five rounds: every one answers (the lost master's from the
    // fallback, the live masters' from Redis).
    for (let round = 0; round < 5; round++) {
      for (const origin of origins) assert.ok(await store.get(origin), origin);
    }
    assert.equal(warnings.length, 1, warnings.join('\n'));
    // Keys of the live masters are still read from Redis: written there by another client,
    // the new value is what the store answers.
    // One live master, asked directly: a key of another node answers MOVED, and is skipped.
    const raw = createClient({ url: cluster.urls[1]!, socket: { reconnectStrategy: false } });
    raw.on('error', () => {});
    await raw.connect();
    let live = 0;
    for (const origin of origins) {
      const changed = sampleEntry({ robotsUrl: `${origin}/robots.txt`, status: 299 });
      try {
        await raw.set(`${prefix}:v2:entry:${origin}`, JSON.stringify(changed), { PX: 60_000 });
      } catch {
        continue; // a key of another master
      }
      live++;
      assert.equal((await store.get(origin))?.status, 299, origin);
    }
    await raw.close().catch(() => {});
    assert.ok(live > 10 && live < 90, `${live} of 90 keys on the master asked`);
    await store.close();
  });
});
