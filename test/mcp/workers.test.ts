/**
 * MCP over HTTP makes its verdicts where the service makes its own: a file whose checks are
 * costly is checked on the worker threads (under the work deadline), not on the event loop
 * every other client shares.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parse } from '../../src/core/index.ts';
import { serveMcpHttp } from '../../src/mcp/index.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';
import { NEAR_MISS_PATH, nearMissFile } from '../helpers/hostile-files.ts';

const PATH = NEAR_MISS_PATH;

let site: TestServer;
const servers: { close(): Promise<void> }[] = [];
before(async () => {
  const body = nearMissFile();
  site = await httpServer(robotsRoute((_req, res) => res.writeHead(200).end(body)));
});
after(async () => {
  for (const server of servers.splice(0)) await server.close();
  await site.close();
});

/** An MCP server whose large files go to the workers after their first check. */
async function mcpWith(work: { deadlineMs?: number }): Promise<Client> {
  const served = await serveMcpHttp({
    version: 'test',
    port: 0,
    allowPrivateAddresses: true,
    limits: { largeFileLoopMs: 0, work },
  });
  servers.push(served);
  const client = new Client({ name: 'workers-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  servers.push(client);
  return client;
}

async function explain(client: Client): Promise<{ isError: boolean; text: string }> {
  const result = (await client.callTool({
    name: 'explain',
    arguments: { url: `${site.origin}${PATH}`, agent: 'Googlebot' },
  })) as { isError?: boolean; content: { text: string }[] };
  return { isError: result.isError === true, text: result.content[0]!.text };
}

test('explain on the workers answers as the core does, and check_url too', async () => {
  const client = await mcpWith({});
  const expected = parse(nearMissFile()).explain(`${site.origin}${PATH}`, 'Googlebot');
  // The first check is made on the event loop and sends the file to the workers.
  for (let round = 0; round < 2; round++) {
    const { isError, text } = await explain(client);
    assert.equal(isError, false, text);
    const answer = JSON.parse(text) as {
      allowed: boolean;
      line: number;
      explanation?: { matches: unknown[] };
    };
    assert.deepEqual([answer.allowed, answer.line], [expected.allowed, expected.line]);
    assert.equal(answer.explanation?.matches.length, expected.matches.length);
  }
  const checked = (await client.callTool({
    name: 'check_url',
    arguments: { url: `${site.origin}${PATH}`, agent: 'Googlebot' },
  })) as unknown as { structuredContent: { allowed: boolean; line: number } };
  assert.deepEqual(
    [checked.structuredContent.allowed, checked.structuredContent.line],
    [expected.allowed, expected.line],
  );
});

test('explain of a costly file is held to the work deadline, off the event loop', async () => {
  const client = await mcpWith({ deadlineMs: 1 });
  assert.equal((await explain(client)).isError, false, 'the first check, on the event loop');
  // On the event loop, as MCP's tools once ran, it was answered whatever it cost.
  const { isError, text } = await explain(client);
  assert.equal(isError, true, text);
  assert.match(text, /1 ms/);
});
