/**
 * The service's in-memory cache is visible: entries, bytes, and fresh entries pushed out by
 * its bound (each may cost a fetch again), on /metrics.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../../src/server/index.ts';
import { httpServer } from '../helpers/servers.ts';

test('/metrics shows the in-memory cache: entries, bytes, evictions past its bound', async () => {
  const sites = await Promise.all(
    [1, 2, 3].map(() =>
      httpServer((_req, res) => void res.writeHead(200).end(`User-agent: *\nDisallow: /x/\n`)),
    ),
  );
  // Room for about two entries.
  const service = await startService({ port: 0, allowAddress: () => true, maxCacheBytes: 1_000 });
  try {
    for (const site of sites) {
      const response = await fetch(`${service.url}/v1/check?url=${site.origin}/x/1&agent=bot`);
      assert.equal(response.status, 200);
    }
    const text = await (await fetch(`${service.url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
    assert.ok(value('repkit_cache_entries') >= 1 && value('repkit_cache_entries') < 3, text);
    assert.ok(value('repkit_cache_bytes') > 0 && value('repkit_cache_bytes') <= 1_000);
    assert.ok(
      value('repkit_cache_evictions_total') >= 1,
      'a fresh entry was pushed out, and counted',
    );
    assert.match(text, /^# TYPE repkit_cache_evictions_total counter$/m);
  } finally {
    await service.close();
    await Promise.all(sites.map((s) => s.close()));
  }
});

test('repkit_store_up is 0 while the Redis store does not answer', async () => {
  const service = await startService({
    port: 0,
    redisUrl: 'redis://127.0.0.1:1',
    onWarning: () => {},
  });
  try {
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    assert.match(metrics, /^repkit_store_up 0$/m);
  } finally {
    await service.close();
  }
});
