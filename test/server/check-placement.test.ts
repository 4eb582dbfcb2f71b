/**
 * Where a file's checks run (the service's CheckPlacement): small files always on the event
 * loop; a large one there until three checks of it were slow or a request spent its budget on
 * it, then on the workers while that fetch of the file is in use.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { CacheEntry } from '../../src/cache/index.ts';
import { parse } from '../../src/core/index.ts';
import type { RobotsState } from '../../src/fetch/index.ts';
import { CheckPlacement } from '../../src/server/check-placement.ts';

function stateOf(body: string | Uint8Array, fetchedAt = 1_000): RobotsState {
  const origin = 'https://example.com';
  const entry = {
    v: 1,
    robotsUrl: `${origin}/robots.txt`,
    outcome: 'ok',
    status: 200,
    fetchedAt,
    expiresAt: fetchedAt + 86_400_000,
    chain: [],
  } as unknown as CacheEntry;
  return {
    location: { origin, robotsUrl: `${origin}/robots.txt` },
    entry,
    source: 'cache',
    robots: parse(body),
  };
}

const LARGE = readFileSync(
  new URL('../../../shared/corpus/robots/www.smugmug.com.txt', import.meta.url),
);

test('a small file has no key: always checked on the event loop', () => {
  const placement = new CheckPlacement();
  assert.equal(placement.key(stateOf('User-agent: *\nDisallow: /private/\n')), undefined);
});

test('a large file stays on the event loop while its checks are cheap, its one-time costs included', () => {
  const placement = new CheckPlacement();
  const key = placement.key(stateOf(LARGE))!;
  assert.ok(key);
  // The first check and the one that builds the prefix index (1.8 and 5.8 ms on this file),
  // then 100,000 checks of 7 µs.
  assert.equal(placement.timed(key, 1.8), false);
  assert.equal(placement.timed(key, 5.8), false);
  for (let i = 0; i < 100_000; i++) assert.equal(placement.timed(key, 0.007), false);
  assert.equal(placement.onWorker(key), false);
});

test('checks that cost more than the allowance send the file to the workers, however mixed', () => {
  const placement = new CheckPlacement();
  const slow = placement.key(stateOf(LARGE, 1))!;
  const mixed = placement.key(stateOf(LARGE, 2))!;
  // 20 ms checks (a hostile file's worst): the third is past 50 ms plus 50 µs a check.
  assert.equal(placement.timed(slow, 20), false);
  assert.equal(placement.timed(slow, 20), false);
  assert.equal(placement.timed(slow, 20), true);
  assert.equal(placement.onWorker(slow), true);
  // A slow check among cheap ones still counts: the event loop's time on the file is bounded.
  let sent = false;
  for (let i = 0; i < 100 && !sent; i++) sent = placement.timed(mixed, i % 2 ? 5 : 0.01);
  assert.equal(sent, true);
  assert.equal(placement.onWorker(mixed), true);
});

test('a new fetch of the file is measured again (the key names the fetch)', () => {
  const placement = new CheckPlacement();
  const first = placement.key(stateOf(LARGE, 1))!;
  placement.timed(first, 60);
  assert.equal(placement.onWorker(first), true);
  const refetched = placement.key(stateOf(LARGE, 2))!;
  assert.notEqual(refetched, first);
  assert.equal(placement.onWorker(refetched), false);
});
