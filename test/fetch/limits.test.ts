/**
 * The client's bounds: the whole-fetch time limit holds while a connection or a name is
 * pending, and the parsed files it keeps stay within their byte limit.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { RobotsClient } from '../../src/fetch/index.ts';
import { ROOT } from '../helpers/shared.ts';
import { tcpServer } from '../helpers/servers.ts';
import { childEnv } from '../helpers/child-env.ts';

describe('the whole-fetch time limit', () => {
  test('holds during a TLS handshake that never completes', async () => {
    // Accepts the connection and never answers the ClientHello.
    const server = await tcpServer(() => {});
    const client = new RobotsClient({ userAgent: 'T/1', timeoutMs: 800, connectTimeoutMs: 10_000 });
    try {
      const started = Date.now();
      const port = new URL(server.origin).port;
      const result = await client.check(`https://127.0.0.1:${port}/x`);
      const elapsed = Date.now() - started;
      assert.equal(result.allowed, false);
      assert.equal(result.error, 'timed out');
      // Ended by the 800 ms limit, not the 10 s connect timeout.
      assert.ok(elapsed < 8_000, `took ${elapsed} ms against a limit of 800`);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test('holds while the name is being resolved', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const lookup: LookupFunction = (_hostname, _options, callback) => {
      const timer = setTimeout(
        () =>
          (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [
            { address: '127.0.0.1', family: 4 },
          ]),
        5_000,
      );
      timers.add(timer);
    };
    const client = new RobotsClient({
      userAgent: 'T/1',
      timeoutMs: 800,
      lookup,
      dns: { timeoutMs: 10_000 },
    });
    try {
      const started = Date.now();
      const result = await client.check('http://slow-dns.test/x');
      const elapsed = Date.now() - started;
      assert.equal(result.error, 'timed out');
      // Ended by the 800 ms limit, not by the lookup, which answers after 5 s.
      assert.ok(elapsed < 4_500, `took ${elapsed} ms against a limit of 800`);
    } finally {
      for (const timer of timers) clearTimeout(timer);
      await client.close();
    }
  });
});

describe('memory', () => {
  test('150 origins × 500 KiB stay within maxParsedBytes and the store limit', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/helpers/memory-worker.ts', '150', '24', '16'],
      { cwd: ROOT, env: childEnv(), maxBuffer: 1 << 20 },
    );
    const report = JSON.parse(stdout) as {
      parsed: { origins: number; bytes: number };
      heapGrowth: number;
    };
    const MiB = 1024 * 1024;
    assert.ok(report.parsed.bytes <= 24 * MiB, `parsed files: ${report.parsed.bytes} bytes`);
    assert.ok(report.parsed.origins < 150, 'older files were let go');
    // The limits (24 + 16 MiB), the estimate's margin, and what the process itself allocates.
    assert.ok(
      report.heapGrowth < 1.25 * 40 * MiB + 16 * MiB,
      `heap grew by ${(report.heapGrowth / MiB).toFixed(1)} MiB`,
    );
  });
});
