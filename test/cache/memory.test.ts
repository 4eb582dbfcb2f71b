import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryStore } from '../../src/cache/index.ts';
import { TestClock } from '../helpers/servers.ts';
import { describeStoreContract, sampleEntry } from './store-contract.ts';

describeStoreContract('MemoryStore', async () => {
  const clock = new TestClock();
  return { store: new MemoryStore({ now: clock.now }), advance: async (ms) => clock.advance(ms) };
});

describe('MemoryStore bounds', () => {
  test('at most maxEntries: the least recently used goes first', async () => {
    const store = new MemoryStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) await store.set(key, sampleEntry(), 60_000);
    await store.get('a'); // a is now the most recently used
    await store.set('d', sampleEntry(), 60_000);
    assert.deepEqual(
      await Promise.all(['a', 'b', 'c', 'd'].map(async (k) => (await store.get(k)) !== undefined)),
      [true, false, true, true],
    );
    assert.equal(store.size, 3);
  });

  test('at most maxBytes', async () => {
    const entry = sampleEntry({ body: Buffer.alloc(30_000, 0x41).toString('base64') });
    const size = JSON.stringify(entry).length * 2;
    const store = new MemoryStore({ maxBytes: size * 3 + 10 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await store.set(key, entry, 60_000);
    assert.equal(store.size, 3);
    assert.ok(store.byteSize <= size * 3 + 10);
    assert.equal(await store.get('a'), undefined);
    assert.notEqual(await store.get('e'), undefined);
  });

  test('an entry larger than the whole store is not kept', async () => {
    const store = new MemoryStore({ maxBytes: 100 });
    await store.set('big', sampleEntry(), 60_000);
    assert.equal(store.size, 0);
  });

  test('entries of another format version are not returned', async () => {
    const store = new MemoryStore();
    await store.set('old', { ...sampleEntry(), v: 0 } as never, 60_000);
    assert.equal(await store.get('old'), undefined);
  });
});
