/**
 * The service's metrics are counted in plain numbers and handed to prom-client when read
 * (see metrics.ts, request-histogram.ts): what `/metrics` shows must be what prom-client's
 * own counters and histogram show for the same events.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { ServiceMetrics } from '../../src/server/index.ts';

/** The lines of `text` that belong to metric `name` (its samples, HELP and TYPE). */
function linesOf(text: string, name: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(name) || line.includes(` ${name} `))
    .filter((line) => line.trim() !== '');
}

describe('service metrics', () => {
  test('request durations: the same buckets, sums and counts as prom-client’s histogram', async () => {
    const metrics = new ServiceMetrics();
    const reference = new Registry();
    const histogram = new Histogram({
      name: 'repkit_http_request_duration_seconds',
      help: 'HTTP requests answered, by route (its pattern: bounded), method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
      registers: [reference],
    });
    const events: [string, string, number, number][] = [
      ['/v1/check', 'GET', 200, 0.0004],
      ['/v1/check', 'GET', 200, 0.001], // on a bound: counted in it
      ['/v1/check', 'GET', 200, 0.0031],
      ['/v1/check', 'POST', 200, 0.2],
      ['/v1/check', 'GET', 400, 0.002],
      ['unmatched', 'GET', 404, 12], // past the last bound: +Inf only
      ['/v1/usage', 'GET', 200, 0.75],
    ];
    for (const [route, method, status, seconds] of events) {
      metrics.request(route, method, status, seconds);
      histogram.observe({ route, method, status: String(status) }, seconds);
    }
    const name = 'repkit_http_request_duration_seconds';
    const ours = linesOf(await metrics.registry.metrics(), name);
    assert.deepEqual(ours, linesOf(await reference.metrics(), name));
    assert.ok(ours.includes(`${name}_count{route="/v1/check",method="GET",status="200"} 3`));
    assert.ok(
      ours.includes(`${name}_bucket{le="0.001",route="/v1/check",method="GET",status="200"} 2`),
    );
  });

  test('checks by verdict (unreachable apart from disallowed) and by source, as prom-client counts them', async () => {
    const metrics = new ServiceMetrics();
    metrics.checksAnswered([
      { allowed: true, source: 'cache', reason: 'no-matching-rule' },
      { allowed: false, source: 'cache', reason: 'disallowed-by-rule' },
      { allowed: true, source: 'fetched', reason: 'allowed-by-rule' },
      { allowed: false, source: 'fetched', reason: 'robots-txt-unreachable' },
      { allowed: false, source: 'cache', reason: 'robots-txt-challenge' },
    ]);
    metrics.checksAnswered([{ allowed: true, source: 'cache', reason: 'no-robots-txt' }]);
    const reference = new Registry();
    const checks = new Counter({
      name: 'repkit_checks_total',
      help: 'URL checks answered, by verdict: allowed, disallowed by the file, or unreachable (the robots.txt, or a wall in its place, could not be read: disallowed for now)',
      labelNames: ['verdict'],
      registers: [reference],
    });
    const cache = new Counter({
      name: 'repkit_cache_total',
      help: 'Checks by where their robots.txt came from: hit (fresh copy), miss (fetched), stale',
      labelNames: ['result'],
      registers: [reference],
    });
    checks.inc({ verdict: 'allowed' }, 3);
    checks.inc({ verdict: 'disallowed' }, 1);
    checks.inc({ verdict: 'unreachable' }, 2);
    cache.inc({ result: 'hit' }, 4);
    cache.inc({ result: 'miss' }, 2);
    const text = await metrics.registry.metrics();
    const expected = await reference.metrics();
    for (const name of ['repkit_checks_total', 'repkit_cache_total']) {
      assert.deepEqual(linesOf(text, name), linesOf(expected, name));
    }
    // Read twice, the counts are not doubled.
    assert.deepEqual(
      linesOf(await metrics.registry.metrics(), 'repkit_checks_total'),
      linesOf(expected, 'repkit_checks_total'),
    );
  });

  test('fetches by class: a 304 that renewed a copy is not-modified, not 3xx', async () => {
    const metrics = new ServiceMetrics();
    const report = { robotsUrl: 'https://example.com/robots.txt', durationMs: 5 };
    metrics.fetch({ ...report, outcome: 'ok', status: 200 });
    metrics.fetch({ ...report, outcome: 'ok', status: 304, notModified: true });
    metrics.fetch({ ...report, outcome: 'not-found', status: 301 });
    metrics.fetch({ ...report, outcome: 'error', status: 0, error: 'timed out' });
    assert.deepEqual(linesOf(await metrics.registry.metrics(), 'repkit_fetches_total{'), [
      'repkit_fetches_total{class="2xx"} 1',
      'repkit_fetches_total{class="not-modified"} 1',
      'repkit_fetches_total{class="3xx"} 1',
      'repkit_fetches_total{class="network"} 1',
    ]);
  });

  test('repkit_build_info names the version and Node.js', async () => {
    const text = await new ServiceMetrics(undefined, undefined, '1.2.3').registry.metrics();
    assert.ok(
      text.includes(`repkit_build_info{version="1.2.3",node="${process.versions.node}"} 1`),
      text,
    );
  });
});
