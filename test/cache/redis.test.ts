import { inflateRawSync } from 'node:zlib';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RedisStore } from '../../src/cache/redis-entry.ts';
import { deleteTestKeys, rawClient, REDIS_URL, testPrefix } from '../helpers/redis.ts';
import { describeStoreContract, sampleEntry } from './store-contract.ts';

let raw: Awaited<ReturnType<typeof rawClient>>;
before(async () => {
  raw = await rawClient();
});
after(async () => {
  await raw.close();
  await deleteTestKeys();
});

describeStoreContract(
  'RedisStore',
  async () => {
    const store = new RedisStore({ url: REDIS_URL, prefix: testPrefix(), onWarning: () => {} });
    await store.ready();
    return { store, advance: (ms) => new Promise((done) => setTimeout(done, ms)) };
  },
  { shared: true },
);

describe('RedisStore keys and leases', () => {
  test('keys are namespaced and versioned; entries expire with the TTL given', async () => {
    const prefix = testPrefix();
    const store = new RedisStore({ url: REDIS_URL, prefix, onWarning: () => {} });
    await store.ready();
    await store.set('https://example.com', sampleEntry(), 90_000);
    const key = `${prefix}:v2:entry:https://example.com`;
    const stored = JSON.parse((await raw.get(key))!) as { body: string; deflated: boolean };
    assert.equal(stored.deflated, true);
    assert.deepEqual(
      inflateRawSync(Buffer.from(stored.body, 'base64')),
      Buffer.from(sampleEntry().body!, 'base64'),
    );
    assert.deepEqual(await store.get('https://example.com'), sampleEntry());
    const ttl = await raw.pTTL(key);
    assert.ok(ttl > 85_000 && ttl <= 90_000, `ttl ${ttl}`);
    // Another format version under the same prefix is never read as this one.
    await raw.set(key, JSON.stringify({ ...sampleEntry(), v: 2 }));
    assert.equal(await store.get('https://example.com'), undefined);
    await store.close();
  });

  test('bodies are kept deflated: a 500 KiB file of one repeated line is not 680 KB of Redis', async () => {
    const prefix = testPrefix();
    const store = new RedisStore({ url: REDIS_URL, prefix, onWarning: () => {} });
    await store.ready();
    const body = Buffer.from('Disallow: /a\n'.repeat(40_000)).toString('base64');
    const good = sampleEntry({ body });
    const entry = sampleEntry({ outcome: 'error', status: 503, lastGood: good, body });
    await store.set('https://bomb.example', entry, 60_000);
    // Whatever the key's format version: every key under the prefix.
    let size = 0;
    for await (const keys of raw.scanIterator({ MATCH: `${prefix}:*` })) {
      for (const key of Array.isArray(keys) ? keys : [keys]) size += await raw.strLen(key);
    }
    assert.ok(size > 0 && size < 10_000, `${size} bytes in Redis`);
    assert.deepEqual(await store.get('https://bomb.example'), entry);
    await store.close();
  });

  test('a lease is exclusive, released by its holder only, and expires by itself', async () => {
    const prefix = testPrefix();
    const a = new RedisStore({ url: REDIS_URL, prefix, onWarning: () => {} });
    const b = new RedisStore({ url: REDIS_URL, prefix, onWarning: () => {} });
    await Promise.all([a.ready(), b.ready()]);
    const lease = await a.acquireLease('https://example.com', 5_000);
    assert.ok(lease);
    assert.equal(await b.acquireLease('https://example.com', 5_000), undefined);
    await lease.release();
    const second = await b.acquireLease('https://example.com', 300);
    assert.ok(second);
    assert.equal(await a.acquireLease('https://example.com', 300), undefined);
    await new Promise((done) => setTimeout(done, 400));
    assert.ok(await a.acquireLease('https://example.com', 300), 'expired lease can be taken');
    await second.release(); // not its lease any more: must not delete a's
    assert.equal(await b.acquireLease('https://example.com', 300), undefined);
    await Promise.all([a.close(), b.close()]);
  });
});
