/**
 * The client's bounds: the whole-fetch time limit holds while a connection or a name is
 * pending, the parsed files it keeps stay within their byte limit, and the connections it
 * leaves idle close within seconds whatever the server offers.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { RobotsClient } from '../../src/fetch/index.ts';
import { ROOT } from '../helpers/shared.ts';
import { lookupTo, tcpServer } from '../helpers/servers.ts';
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
      assert.equal(result.errorCode, 'ETIMEDOUT');
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
      assert.equal(result.errorCode, 'ETIMEDOUT');
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

describe('connections', () => {
  test('idle ones close within seconds even when the server offers to keep them for a minute', async () => {
    // Each origin is fetched once a day: a socket kept per origin for the server's 60 s hint
    // ran a crawler of 10,000 origins a minute out of file descriptors.
    const server = createServer((_req, res) => res.end('User-agent: *\nDisallow: /p\n'));
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const client = new RobotsClient({ userAgent: 'T/1', lookup: lookupTo('127.0.0.1') });
    const open = () =>
      new Promise<number>((done, fail) =>
        server.getConnections((error, count) => (error ? fail(error) : done(count))),
      );
    try {
      const verdicts = await Promise.all(
        Array.from({ length: 30 }, (_, i) => client.check(`http://o${i}.test:${port}/p`)),
      );
      assert.deepEqual(new Set(verdicts.map((v) => v.reason)), new Set(['disallowed-by-rule']));
      assert.ok((await open()) > 0, 'the fetches left connections open');
      // Polled for 20 s: the client's own 4 s, late on a loaded machine, and still a third of
      // the server's minute.
      const deadline = Date.now() + 20_000;
      while ((await open()) > 0 && Date.now() < deadline) await sleep(250);
      assert.equal(await open(), 0);
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});
