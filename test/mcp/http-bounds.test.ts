/**
 * MCP over HTTP is bounded like the service, by the service's own code: a client's budget of
 * new origins, name hiding, a deadline and a bound on calls and streams in flight per
 * client, the Origin header checked, wrong tokens limited, and a token anyone can guess
 * refused at start.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveMcpHttp } from '../../src/mcp/index.ts';
import { runCli } from '../helpers/cli.ts';
import { httpServer, lookupBy, type TestServer } from '../helpers/servers.ts';

const TOKEN = 'mcp-bounds-token-0123456789';
let site: TestServer;
let hanging: TestServer;
let served: { url: string; close(): Promise<void> };

/** `*.site.test` is the loopback site; `internal.test` a private address; the rest none. */
const lookup = lookupBy((hostname) =>
  hostname.endsWith('.site.test')
    ? '127.0.0.1'
    : hostname === 'internal.test'
      ? '10.1.2.3'
      : undefined,
);

before(async () => {
  site = await httpServer((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /no\n'));
  // Its robots.txt never answers.
  hanging = await httpServer(() => {});
  served = await serveMcpHttp({
    version: 'test',
    port: 0,
    // Loopback is this test's "public" address; 10/8 stays private.
    allowAddress: (address) => address === '127.0.0.1',
    lookup,
    newOriginsPerMinute: 6,
    access: { token: TOKEN },
    timeoutMs: 20_000,
    mcp: { callsPerClient: 2, deadlineMs: 1_000, streamsPerClient: 1 },
  });
});
after(async () => {
  await served.close();
  await site.close();
  await hanging.close();
});

async function connected(): Promise<Client> {
  const client = new Client({ name: 'bounds-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(served.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return client;
}

const port = () => new URL(site.origin).port;

/** A tool call's text, error or not. */
async function call(client: Client, url: string): Promise<{ isError: boolean; text: string }> {
  const result = (await client.callTool({ name: 'check_url', arguments: { url } })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  return { isError: result.isError === true, text: result.content[0]!.text };
}

test('a name that resolves to a private address reads as one that does not resolve', async () => {
  const client = await connected();
  try {
    const internal = await call(client, 'http://internal.test/x');
    const missing = await call(client, 'http://missing.test/x');
    const reason = (text: string) =>
      (JSON.parse(text) as { error?: string }).error?.replace(
        /internal\.test|missing\.test/g,
        'NAME',
      );
    assert.ok(!internal.text.includes('10.1.2.3'), internal.text);
    assert.equal(reason(internal.text), reason(missing.text));
  } finally {
    await client.close();
  }
});

test('a call past its deadline is answered (504), and a client has at most two in flight', async () => {
  const body = (id: number) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'check_url',
        arguments: { url: `${hanging.origin.replace('127.0.0.1', 'h.site.test')}/x` },
      },
    });
  const send = (id: number) =>
    fetch(served.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: body(id),
    });
  const inFlight = [send(1), send(2)];
  await new Promise((done) => setTimeout(done, 200));
  const third = await send(3);
  assert.equal(third.status, 429);
  const [a, b] = await Promise.all(inFlight);
  assert.deepEqual([a!.status, b!.status], [504, 504]);
});

test('a browser page of another origin is refused (403); the server’s own origin is not', async () => {
  const list = (origin: string) =>
    fetch(served.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        origin,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  const evil = await list('http://evil.example');
  assert.equal(evil.status, 403);
  assert.equal(((await evil.json()) as { error: string }).error, 'forbidden-origin');
  const own = await list(new URL(served.url).origin);
  assert.equal(own.status, 200);
  await own.text();
});

test('one SSE stream per client here; the next is refused', async () => {
  const open = () =>
    fetch(served.url, {
      headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' },
    });
  const first = await open();
  assert.equal(first.status, 200);
  const second = await open();
  assert.equal(second.status, 429);
  await first.body?.cancel();
});

test("a client's budget of new origins holds over MCP too", async () => {
  const client = await connected();
  try {
    // The tests before spent some of the six; new origins until one is refused.
    let refused: { isError: boolean; text: string } | undefined;
    let n = 0;
    for (; n < 7 && !refused; n++) {
      const answer = await call(client, `http://o${n}.site.test:${port()}/x`);
      if (answer.isError) refused = answer;
    }
    assert.ok(refused, 'refused within seven new origins');
    assert.match(refused.text, /6 robots\.txt fetches a minute/);
    // A cached origin costs nothing.
    assert.equal((await call(client, `http://o0.site.test:${port()}/y`)).isError, false);
  } finally {
    await client.close();
  }
});

test('wrong tokens are limited per client; a token anyone can guess is refused at start', async () => {
  let status = 0;
  for (let i = 0; i < 25 && status !== 429; i++) {
    const answer = await fetch(served.url, { headers: { authorization: 'Bearer wrong' } });
    status = answer.status;
    await answer.arrayBuffer();
  }
  assert.equal(status, 429);
  const short = await runCli(['mcp', '--http', '0', '--token', 'a']);
  assert.equal(short.code, 2);
  assert.match(short.stderr, /--token must be at least 16 visible ASCII characters/);
});
