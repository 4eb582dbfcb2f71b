/**
 * `repkit mcp`: every tool called by the MCP SDK's own client over stdio, against loopback
 * sites: a disallowed URL, an unreachable robots.txt, the combined usage answer, an
 * explanation, lint (text and site) and the AI crawlers a site lets in.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { MCP_TOOLS } from '../../src/mcp/index.ts';
import { BIN } from '../helpers/cli.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';

let site: TestServer;
let down: TestServer;
let client: Client;
before(async () => {
  site = await httpServer(
    robotsRoute((_req, res) =>
      res
        .writeHead(200)
        .end(
          'User-agent: *\nDisallow: /private/\nContent-Signal: ai-train=no\n\nUser-agent: GPTBot\nDisallow: /\n',
        ),
    ),
  );
  down = await httpServer(robotsRoute((_req, res) => res.writeHead(503).end()));
  client = new Client({ name: 'repkit-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--allow-private-addresses', '--user-agent', 'ExampleBot/1.0'],
      stderr: 'ignore',
    }),
  );
});
after(async () => {
  await client.close();
  await Promise.all([site.close(), down.close()]);
});

/** A tool's structured result. */
async function call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError ?? false, false, JSON.stringify(result.content));
  return result.structuredContent as Record<string, unknown>;
}

test('the tools the issue names, each with input and output schemas', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [...MCP_TOOLS].sort());
  for (const tool of tools) {
    assert.ok(tool.inputSchema, tool.name);
    assert.ok(tool.outputSchema, tool.name);
  }
});

test('check_url: a disallowed URL with its deciding line; an unreachable robots.txt defers', async () => {
  const blocked = await call('check_url', { url: `${site.origin}/private/a` });
  assert.deepEqual([blocked.allowed, blocked.line, blocked.agent], [false, 2, ['ExampleBot']]);
  const gpt = await call('check_url', { url: `${site.origin}/a`, agent: 'GPTBot' });
  assert.deepEqual([gpt.allowed, gpt.line], [false, 6]);
  const unreachable = await call('check_url', { url: `${down.origin}/a` });
  assert.deepEqual([unreachable.allowed, unreachable.reason], [false, 'robots-txt-unreachable']);
});

test('usage and explain: the combined answer and the reasons, with their sources', async () => {
  const usage = await call('usage', { url: `${site.origin}/page`, agent: 'ExampleBot' });
  const trainAi = usage['train-ai'] as { preference: string };
  assert.equal(trainAi.preference, 'disallowed');
  const explained = await call('explain', { url: `${site.origin}/private/a` });
  const explanation = explained.explanation as { matches: unknown[] };
  assert.equal(explanation.matches.length, 1);
});

test('lint_robots_txt on text and on a site; ai_crawlers on a site', async () => {
  const text = await call('lint_robots_txt', { text: 'Disallow: /x\n' });
  assert.equal(text.errors, 1);
  const fetched = await call('lint_robots_txt', { url: `${site.origin}/` });
  assert.equal(fetched.robots, `${site.origin}/robots.txt`);
  const crawlers = await call('ai_crawlers', { url: `${site.origin}/` });
  const byName = new Map(
    (crawlers.crawlers as { agent: string; allowed: boolean }[]).map((c) => [c.agent, c.allowed]),
  );
  assert.equal(byName.get('GPTBot'), false);
  assert.equal(byName.get('ClaudeBot'), true);
});

test('--http: the same tools over Streamable HTTP, behind the token and the Host check', async () => {
  const child = spawn(
    process.execPath,
    [BIN, 'mcp', '--http', '0', '--token', 'secret', '--allow-private-addresses'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const endpoint = await new Promise<string>((done, fail) => {
      let err = '';
      child.stderr!.on('data', (d: Buffer) => {
        err += d;
        const found = /serving MCP on (http:\/\/\S+)/.exec(err);
        if (found) done(found[1]!);
      });
      child.on('exit', () => fail(new Error(err)));
    });
    const http = new Client({ name: 'repkit-test-http', version: '1.0.0' });
    await http.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { authorization: 'Bearer secret' } },
      }),
    );
    try {
      const result = await http.callTool({
        name: 'check_url',
        arguments: { url: `${site.origin}/private/a` },
      });
      const verdict = result.structuredContent as { allowed: boolean; line: number };
      assert.deepEqual([verdict.allowed, verdict.line], [false, 2]);
    } finally {
      await http.close();
    }
    // Without the token, and under another Host name: refused before any tool runs.
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const anonymous = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify(call),
    });
    assert.equal(anonymous.status, 401);
    // (fetch will not send another Host: a raw request does, as a rebinding page's would.)
    const rebound = await new Promise<{ status: number }>((done, fail) => {
      const target = new URL(endpoint);
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: { ...headers, authorization: 'Bearer secret', host: 'evil.example' },
        },
        (res) => {
          res.resume();
          done({ status: res.statusCode ?? 0 });
        },
      );
      req.on('error', fail);
      req.end(JSON.stringify(call));
    });
    assert.equal(rebound.status, 421);
  } finally {
    child.kill('SIGTERM');
  }
});
