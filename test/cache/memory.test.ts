import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { MemoryStore } from '../../src/cache/index.ts';
import { TestClock } from '../helpers/servers.ts';
import { ROOT } from '../helpers/shared.ts';
import { describeStoreContract, sampleEntry } from './store-contract.ts';
import { childEnv } from '../helpers/child-env.ts';

describeStoreContract(
  'MemoryStore',
  async () => {
    const clock = new TestClock();
    return { store: new MemoryStore({ now: clock.now }), advance: async (ms) => clock.advance(ms) };
  },
  { shared: false },
);

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

  test('at most maxBytes, counted as held (bodies compressed)', async () => {
    const entry = sampleEntry({ body: randomBytes(30_000).toString('base64') });
    const probe = new MemoryStore();
    await probe.set('a', entry, 60_000);
    const size = probe.byteSize;
    assert.ok(size > 30_000 && size < 31_000, `random bytes do not compress: ${size}`);
    const store = new MemoryStore({ maxBytes: size * 3 + 10 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await store.set(key, entry, 60_000);
    assert.equal(store.size, 3);
    assert.ok(store.byteSize <= size * 3 + 10);
    assert.equal(await store.get('a'), undefined);
    assert.notEqual(await store.get('e'), undefined);
    assert.equal(store.stats.evictions, 2, 'two fresh entries pushed out, and counted');
  });

  test('bodies are kept compressed and come back exactly, the last good copy too', async () => {
    const text = 'User-agent: *\nDisallow: /private/\n'.repeat(200);
    const body = Buffer.from(text).toString('base64');
    const entry = sampleEntry({
      body,
      outcome: 'error',
      lastGood: { ...sampleEntry({ body: Buffer.from('User-agent: x\n').toString('base64') }) },
    } as never);
    const store = new MemoryStore();
    await store.set('k', entry, 60_000);
    assert.deepEqual(await store.get('k'), entry);
    assert.ok(store.byteSize < body.length / 5, `held ${store.byteSize} for ${body.length}`);
  });

  test('expired entries are not counted as evictions', async () => {
    const clock = new TestClock();
    const store = new MemoryStore({ maxEntries: 1, now: clock.now });
    await store.set('a', sampleEntry(), 1_000);
    clock.advance(2_000);
    await store.set('b', sampleEntry(), 1_000);
    assert.equal(store.stats.evictions, 0);
    await store.set('c', sampleEntry(), 1_000);
    assert.equal(store.stats.evictions, 1);
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

describe('MemoryStore memory', () => {
  test('what the process holds is what the store counts: 20,000 real files', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/helpers/store-memory-worker.ts', '20000'],
      { cwd: ROOT, env: childEnv(), maxBuffer: 1 << 20 },
    );
    const report = JSON.parse(stdout) as { entries: number; bytes: number; growth: number };
    assert.equal(report.entries, 20_000);
    // Within a tenth of what is counted, and a little for the process's own allocations.
    const MiB = 1024 * 1024;
    assert.ok(
      report.growth < 1.1 * report.bytes + 4 * MiB,
      `held ${(report.growth / MiB).toFixed(1)} MiB, counted ${(report.bytes / MiB).toFixed(1)} MiB`,
    );
  });
});
