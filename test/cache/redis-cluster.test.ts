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

describeStoreContract('RedisStore on a Redis Cluster', async () => {
  const store = clusterStore();
  await store.ready();
  return { store, advance: (ms) => new Promise((done) => setTimeout(done, ms)) };
});

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
