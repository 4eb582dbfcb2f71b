/**
 * Network failures are server errors (everything disallowed for now), each reported within
 * its timeout, with no socket or timer left behind (the file's process must exit by itself).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, describe, test } from 'node:test';
import { RobotsClient } from '../../src/fetch/index.ts';
import { tcpServer, type TestServer } from '../helpers/servers.ts';

const servers: TestServer[] = [];
const clients: RobotsClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

const TIMEOUT = 400;
function client(extra: Partial<ConstructorParameters<typeof RobotsClient>[0]> = {}): RobotsClient {
  const made = new RobotsClient({
    userAgent: 'ExampleBot/1.0',
    timeoutMs: TIMEOUT,
    connectTimeoutMs: 300,
    ...extra,
  });
  clients.push(made);
  return made;
}

async function raw(onConnection: Parameters<typeof tcpServer>[0]): Promise<TestServer> {
  const server = await tcpServer(onConnection);
  servers.push(server);
  return server;
}

/** Runs a check and returns it with how long it took. */
async function timed(robots: RobotsClient, url: string) {
  const start = performance.now();
  const verdict = await robots.check(url);
  return { verdict, ms: performance.now() - start };
}

function assertServerError(
  verdict: Awaited<ReturnType<RobotsClient['check']>>,
  error: RegExp,
  errorCode?: string,
): void {
  assert.deepEqual(
    [verdict.allowed, verdict.reason, verdict.status],
    [false, 'robots-txt-unreachable', 0],
  );
  assert.match(verdict.error ?? '', error);
  // The code programs act on, where one is known.
  if (errorCode !== undefined) assert.equal(verdict.errorCode, errorCode);
}

describe('network failures are server errors', () => {
  test('a server that never answers: timed out, within the timeout', async () => {
    const server = await raw(() => {});
    const { verdict, ms } = await timed(client(), `${server.origin}/`);
    assertServerError(verdict, /timed out/, 'ETIMEDOUT');
    // Ended by its timeout: never before it, and long before a loaded machine's slowest.
    assert.ok(ms >= TIMEOUT - 50 && ms < TIMEOUT + 10_000, `took ${ms} ms`);
  });

  test('headers, then the body stalls', async () => {
    const server = await raw((socket) => {
      socket.once('data', () =>
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n'),
      );
    });
    const { verdict, ms } = await timed(client(), `${server.origin}/`);
    assertServerError(verdict, /timed out/);
    assert.ok(ms < TIMEOUT + 10_000, `took ${ms} ms`);
  });

  test('a connection reset in the middle of the body', async () => {
    const server = await raw((socket) => {
      socket.once('data', () => {
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\nDisallow: /x\n',
        );
        setTimeout(() => socket.resetAndDestroy(), 20);
      });
    });
    assertServerError(
      (await timed(client(), `${server.origin}/`)).verdict,
      /ECONNRESET|other side closed|terminated/i,
    );
  });

  test('a truncated response (shorter than its Content-Length)', async () => {
    const server = await raw((socket) => {
      socket.once('data', () =>
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\nUser-agent: *\n'),
      );
    });
    assertServerError((await timed(client(), `${server.origin}/`)).verdict, /.+/);
  });

  test('a malformed response', async () => {
    const server = await raw((socket) =>
      socket.once('data', () => socket.end('this is not HTTP\r\n\r\n')),
    );
    assertServerError((await timed(client(), `${server.origin}/`)).verdict, /.+/);
  });

  test('a refused connection', async () => {
    // Take a free port, then close it again so nothing listens there.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((done) => probe.close(() => done()));
    assertServerError(
      (await timed(client(), `http://127.0.0.1:${port}/`)).verdict,
      /ECONNREFUSED/,
      'ECONNREFUSED',
    );
  });

  test('a DNS failure', async () => {
    const lookup = ((_host: string, _options: unknown, callback: (error: Error) => void) => {
      callback(
        Object.assign(new Error('getaddrinfo ENOTFOUND no-such-host.test'), { code: 'ENOTFOUND' }),
      );
    }) as never;
    assertServerError(
      (await timed(client({ lookup }), 'http://no-such-host.test/')).verdict,
      /ENOTFOUND/,
      'ENOTFOUND',
    );
  });
});
