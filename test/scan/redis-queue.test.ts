/**
 * RedisQueue on one Redis server (REDIS_URL, the suite's): inputs added once whoever adds
 * them, a lease renewed while its reader lives, taken over once it stops, and an input
 * finished but not acknowledged not read again. The keys are removed after.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { RedisQueue, type ScanInput } from '../../src/scan/index.ts';
import { rawClient, REDIS_URL } from '../helpers/redis.ts';

const name = `repkit-test-scan-${randomUUID().slice(0, 8)}`;
const opened: RedisQueue[] = [];

after(async () => {
  await Promise.all(opened.map((q) => q.close().catch(() => {})));
  const redis = await rawClient();
  try {
    await redis.del([`{${name}}:inputs`, `{${name}}:queued`, `{${name}}:done`]);
    assert.deepEqual(await redis.keys(`{${name}}:*`), []);
  } finally {
    await redis.close();
  }
});

const input = (path: string): ScanInput => ({ kind: 'warc', path, bytes: 1 });
const CLAIM_AFTER_MS = 400;

async function queue(): Promise<RedisQueue> {
  const q = await RedisQueue.open({ urls: [REDIS_URL], name, claimAfterMs: CLAIM_AFTER_MS });
  opened.push(q);
  return q;
}

test('inputs added once, leases renewed while held, taken over once their reader stops', async () => {
  const [one, two] = [await queue(), await queue()];
  // A process started before any input was added waits for them rather than ending.
  const early = two.next();
  await sleep(CLAIM_AFTER_MS);
  assert.equal(await one.add([input('/a'), input('/b')]), 2);
  const first = (await early)!;
  assert.equal(first.input.path, '/a');
  await first.release();
  assert.equal(await two.add([input('/a'), input('/b'), input('/c')]), 1);
  const a = (await one.next())!;
  const b = (await two.next())!;
  // /a, given back by the early taker, is taken over at once.
  assert.deepEqual([a.input.path, a.claimed, b.input.path], ['/a', true, '/b']);
  // Held past the claim time, but renewed: the next input is a new one, not /a taken over.
  await sleep(CLAIM_AFTER_MS * 2.5);
  const c = (await two.next())!;
  assert.deepEqual([c.input.path, c.claimed], ['/c', false]);
  await b.done();
  await c.done();
  // `one` stops (its process ends): /a is taken over by `two`, once it has lapsed.
  await one.close();
  const taken = (await two.next())!;
  assert.deepEqual([taken.input.path, taken.claimed], ['/a', true]);
  // Its rows committed and recorded, then `two` stops before acknowledging it...
  const redis = await rawClient();
  try {
    await redis.hSet(`{${name}}:done`, '/a', two.consumer);
  } finally {
    await redis.close();
  }
  await two.close();
  // ...so a third process drops it rather than read it again, and finds the scan over.
  const three = await queue();
  assert.equal(await three.next(), undefined);
  // An input given back unfinished is taken at once, without waiting for the claim time.
  await three.add([input('/d')]);
  const d = (await three.next())!;
  await d.release();
  const again = (await three.next())!;
  assert.deepEqual([again.input.path, again.claimed], ['/d', true]);
  await again.done();
  assert.equal(await three.next(), undefined);
});
