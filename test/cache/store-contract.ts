/**
 * The contract every cache store passes. A store runs it with
 * `describeStoreContract('name', async () => ({ store, advance }))`: `advance(ms)` moves the
 * store's clock (or waits) so that expiry can be tested.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CacheEntry, CacheStore } from '../../src/cache/index.ts';

export interface StoreUnderTest {
  store: CacheStore;
  /** Makes `ms` pass for the store (a test clock, or a real wait for real servers). */
  advance(ms: number): Promise<void>;
  /** The shortest TTL the store can honour (Redis: whole milliseconds). */
  ttlUnit?: number;
}

export function sampleEntry(overrides: Partial<CacheEntry> = {}): CacheEntry {
  return {
    v: 1,
    robotsUrl: 'https://example.com/robots.txt',
    outcome: 'ok',
    status: 200,
    body: Buffer.from('User-agent: *\nDisallow: /private/\n\xe9').toString('base64'),
    headers: { 'cache-control': 'max-age=3600', 'content-type': 'text/plain' },
    chain: ['https://example.com/robots.txt'],
    fetchedAt: 1_767_225_600_000,
    expiresAt: 1_767_229_200_000,
    ...overrides,
  };
}

/**
 * `shared`: the store is shared by a fleet, and so holds leases (a per-process store has no
 * fleet to share with: its contract has no lease cases).
 */
export function describeStoreContract(
  name: string,
  make: () => Promise<StoreUnderTest>,
  { shared }: { shared: boolean },
): void {
  describe(`cache store contract: ${name}`, () => {
    async function withStore(run: (s: StoreUnderTest) => Promise<void>): Promise<void> {
      const subject = await make();
      try {
        await run(subject);
      } finally {
        await subject.store.close();
      }
    }

    test('a missing key is undefined', () =>
      withStore(async ({ store }) => {
        assert.equal(await store.get('https://nowhere.example'), undefined);
      }));

    test('an entry comes back equal, nested data and all', () =>
      withStore(async ({ store }) => {
        const entry = sampleEntry({
          outcome: 'error',
          status: 503,
          error: 'HTTP 503',
          errors: 3,
          errorSince: 1_767_000_000_000,
          lastGood: { ...sampleEntry(), truncated: true },
        });
        await store.set('https://example.com', entry, 60_000);
        assert.deepEqual(await store.get('https://example.com'), entry);
      }));

    test('entries are kept apart by key', () =>
      withStore(async ({ store }) => {
        await store.set('https://a.example', sampleEntry({ status: 200 }), 60_000);
        await store.set(
          'https://b.example',
          sampleEntry({ status: 404, outcome: 'not-found' }),
          60_000,
        );
        assert.equal((await store.get('https://a.example'))?.status, 200);
        assert.equal((await store.get('https://b.example'))?.status, 404);
      }));

    test('set replaces', () =>
      withStore(async ({ store }) => {
        await store.set('k', sampleEntry({ status: 200 }), 60_000);
        await store.set('k', sampleEntry({ status: 410, outcome: 'not-found' }), 60_000);
        assert.equal((await store.get('k'))?.status, 410);
      }));

    test('delete removes', () =>
      withStore(async ({ store }) => {
        await store.set('k', sampleEntry(), 60_000);
        await store.delete('k');
        assert.equal(await store.get('k'), undefined);
        await store.delete('never-set');
      }));

    test('an entry is gone after its TTL, not before', () =>
      withStore(async ({ store, advance }) => {
        await store.set('short', sampleEntry(), 1_000);
        await store.set('long', sampleEntry(), 600_000);
        await advance(400);
        assert.notEqual(await store.get('short'), undefined);
        await advance(1_000);
        assert.equal(await store.get('short'), undefined);
        assert.notEqual(await store.get('long'), undefined);
      }));

    test('a turn is taken once per interval; the wait is reported, nothing taken meanwhile', () =>
      withStore(async ({ store, advance }) => {
        assert.ok(store.takeTurn, 'every store keeps turns (politeness shared by its users)');
        assert.equal(await store.takeTurn('https://a.example', 600), 0);
        const wait = await store.takeTurn('https://a.example', 600);
        assert.ok(wait > 0 && wait <= 600, `wait ${wait}`);
        // Another key has its own turns; an interval of 0 takes nothing.
        assert.equal(await store.takeTurn('https://b.example', 0), 0);
        assert.equal(await store.takeTurn('https://b.example', 0), 0);
        await advance(700);
        assert.equal(await store.takeTurn('https://a.example', 600), 0);
      }));

    test('holding off pushes the next turn out, never in', () =>
      withStore(async ({ store, advance }) => {
        assert.ok(store.holdOff && store.takeTurn);
        await store.holdOff('https://c.example', 800);
        await store.holdOff('https://c.example', 10); // shorter: changes nothing
        const wait = await store.takeTurn('https://c.example', 0);
        assert.ok(wait > 400 && wait <= 800, `wait ${wait}`);
        await advance(900);
        assert.equal(await store.takeTurn('https://c.example', 0), 0);
      }));

    if (shared) {
      test('a lease is exclusive until released', async () => {
        await withStore(async ({ store }) => {
          assert.ok(store.acquireLease, 'a shared store holds leases');
          const lease = await store.acquireLease('https://d.example', 10_000);
          assert.ok(lease);
          assert.equal(await store.acquireLease('https://d.example', 10_000), undefined);
          await lease.release();
          const again = await store.acquireLease('https://d.example', 10_000);
          assert.ok(again);
          await again.release();
        });
      });
    }

    test('keys with unusual characters work', () =>
      withStore(async ({ store }) => {
        for (const key of [
          'http://[2001:db8::1]:8080',
          'https://xn--bcher-kva.example',
          'ftp://a b*?{}',
        ]) {
          await store.set(key, sampleEntry({ robotsUrl: `${key}/robots.txt` }), 60_000);
          assert.equal((await store.get(key))?.robotsUrl, `${key}/robots.txt`);
        }
      }));
  });
}
