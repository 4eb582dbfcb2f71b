/**
 * `repkit mcp`: every tool called by the MCP SDK's own client, over stdio and over Streamable
 * HTTP, against loopback sites: a disallowed URL, an unreachable robots.txt, a bot wall in
 * the robots.txt's place, a page that asks payment, the combined usage answer, an
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
import { answerAs, edgeSite } from '../helpers/edge-sites.ts';
import { childEnv } from '../helpers/child-env.ts';

let site: TestServer;
let down: TestServer;
/** A Cloudflare-style challenge answers its robots.txt. */
let walled: TestServer;
/** Its robots.txt allows everything; /article answers 402 with a pay-per-crawl price. */
let paid: TestServer;
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
  walled = await edgeSite('cloudflare');
  paid = await edgeSite('User-agent: *\nAllow: /\n', (path, res) => {
    if (path !== '/article') return false;
    answerAs('pay-per-crawl', res);
    return true;
  });
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
  await Promise.all([site.close(), down.close(), walled.close(), paid.close()]);
});

type Call = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** A tool's structured result, through `mcp`. */
function caller(mcp: Client): Call {
  return async (name, args) => {
    const result = await mcp.callTool({ name, arguments: args });
    assert.equal(result.isError ?? false, false, JSON.stringify(result.content));
    return result.structuredContent as Record<string, unknown>;
  };
}

/** Every tool on every kind of site, asserted alike over each transport. */
async function everyTool(mcp: Client): Promise<void> {
  const call = caller(mcp);
  const { tools } = await mcp.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [...MCP_TOOLS].sort());
  for (const tool of tools) {
    assert.ok(tool.inputSchema, tool.name);
    assert.ok(tool.outputSchema, tool.name);
    // Clients decide what to confirm from these: every tool only reads, from the open web.
    const { readOnlyHint, destructiveHint, openWorldHint } = tool.annotations ?? {};
    assert.deepEqual(
      [readOnlyHint, destructiveHint, openWorldHint],
      [true, false, true],
      tool.name,
    );
  }
  assert.match(mcp.getInstructions() ?? '', /check_url/);

  // check_url: a disallowed URL with its deciding line; an unreachable robots.txt and a
  // wall in its place defer; a paid page's robots.txt allows it.
  const blocked = await call('check_url', { url: `${site.origin}/private/a` });
  assert.deepEqual([blocked.allowed, blocked.line, blocked.agent], [false, 2, ['ExampleBot']]);
  const gpt = await call('check_url', { url: `${site.origin}/a`, agent: 'GPTBot' });
  assert.deepEqual([gpt.allowed, gpt.line], [false, 6]);
  const unreachable = await call('check_url', { url: `${down.origin}/a` });
  assert.deepEqual([unreachable.allowed, unreachable.reason], [false, 'robots-txt-unreachable']);
  const wall = await call('check_url', { url: `${walled.origin}/a` });
  assert.deepEqual([wall.allowed, wall.reason], [false, 'robots-txt-challenge']);
  assert.deepEqual(wall.edge, {
    kind: 'challenge',
    evidence: ['status 403', 'cf-mitigated: challenge'],
    vendor: 'cloudflare',
  });
  const article = await call('check_url', { url: `${paid.origin}/article` });
  assert.equal(article.allowed, true);

  // usage: the combined answer with its sources; a paid page with its price.
  const usage = await call('usage', { url: `${site.origin}/page`, agent: 'ExampleBot' });
  assert.equal((usage['train-ai'] as { preference: string }).preference, 'disallowed');
  assert.equal(usage.llmsTxt, undefined);
  // llms: the site's llms.txt asked for too, and reported.
  const withLlms = await call('usage', { url: `${site.origin}/page`, llms: true });
  const llms = withLlms.llmsTxt as { kind: string; url: string; status: number };
  assert.deepEqual([llms.kind, llms.url], ['fetched', `${site.origin}/llms.txt`]);
  assert.equal(typeof llms.status, 'number');
  const priced = await call('usage', { url: `${paid.origin}/article` });
  const page = priced.page as { status: number; edge?: { price?: unknown } };
  assert.equal(page.status, 402);
  assert.deepEqual(page.edge?.price, { scheme: 'crawler-price', currency: 'USD', amount: '0.01' });
  assert.equal((priced.index as { may: boolean }).may, false);
  const walledUsage = await call('usage', { url: `${walled.origin}/a` });
  assert.equal((walledUsage.fetch as { may: boolean }).may, false);
  assert.equal((walledUsage.robotsTxt as { edge?: { kind: string } }).edge?.kind, 'challenge');
  const unreachableUsage = await call('usage', { url: `${down.origin}/a` });
  assert.equal((unreachableUsage.fetch as { may: boolean }).may, false);

  // explain: everything behind the verdict; a wall's reason.
  const explained = await call('explain', { url: `${site.origin}/private/a` });
  assert.equal((explained.explanation as { matches: unknown[] }).matches.length, 1);
  const explainedWall = await call('explain', { url: `${walled.origin}/a` });
  assert.equal(explainedWall.reason, 'robots-txt-challenge');

  // lint_robots_txt: text; a site; a site behind a wall (the wall is the error).
  const text = await call('lint_robots_txt', { text: 'Disallow: /x\n' });
  assert.equal(text.errors, 1);
  const fetched = await call('lint_robots_txt', { url: `${site.origin}/` });
  assert.equal(fetched.robots, `${site.origin}/robots.txt`);
  const lintedWall = await call('lint_robots_txt', { url: `${walled.origin}/` });
  assert.deepEqual([lintedWall.errors, lintedWall.reading], [1, 'unreachable']);
  assert.equal((lintedWall.edge as { kind: string }).kind, 'challenge');

  // ai_crawlers: by each crawler's own group or *; behind a wall, none may.
  const crawlers = await call('ai_crawlers', { url: `${site.origin}/` });
  const byName = new Map(
    (crawlers.crawlers as { agent: string[]; allowed: boolean }[]).map((c) => [
      c.agent[0]!,
      c.allowed,
    ]),
  );
  assert.equal(byName.get('GPTBot'), false);
  assert.equal(byName.get('ClaudeBot'), true);
  const walledCrawlers = await call('ai_crawlers', { url: `${walled.origin}/` });
  assert.equal((walledCrawlers.edge as { kind: string }).kind, 'challenge');
  for (const crawler of walledCrawlers.crawlers as { allowed: boolean; reason: string }[]) {
    assert.equal(crawler.allowed, false, JSON.stringify(crawler));
  }

  // An argument a tool does not take is refused by name, as the tools' schemas say
  // (additionalProperties: false), not dropped: a model that passes the file it means
  // (`robotsTxt`) must not get an answer about the live site instead.
  for (const name of MCP_TOOLS) {
    const result = await mcp.callTool({
      name,
      arguments: { url: `${site.origin}/a`, robotsTxt: 'User-agent: *\nAllow: /\n' },
    });
    const text = JSON.stringify(result.content);
    assert.equal(result.isError, true, `${name}: ${text}`);
    assert.match(text, /robotsTxt/, name);
    assert.equal(result.structuredContent, undefined, name);
  }
}

test('over stdio: every tool, on a disallowed URL, an unreachable robots.txt, a wall, a paid page', async () => {
  await everyTool(client);
});

/** A token as serve and mcp --http take them: 16 visible characters or more. */
const TOKEN = 'mcp-test-token-0123456789';

test('--http: the same tools over Streamable HTTP, behind the token and the Host check', async () => {
  const served = await startMcpHttp([
    '--token',
    TOKEN,
    '--allow-private-addresses',
    '--user-agent',
    'ExampleBot/1.0',
  ]);
  try {
    const endpoint = served.endpoint;
    const http = new Client({ name: 'repkit-test-http', version: '1.0.0' });
    await http.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      await everyTool(http);
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
    const rebound = await listToolsAs(endpoint, 'evil.example', `Bearer ${TOKEN}`);
    assert.equal(rebound.status, 421);
  } finally {
    served.stop();
  }
});

/** Starts `repkit mcp --http 0` with `args`; its endpoint, and a stop. */
async function startMcpHttp(args: string[]): Promise<{ endpoint: string; stop(): void }> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '0', ...args], {
    env: childEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const endpoint = await new Promise<string>((done, fail) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d;
      const found = /serving MCP on (http:\/\/\S+)/.exec(err);
      if (found) done(found[1]!);
    });
    child.on('exit', () => fail(new Error(err)));
  });
  return { endpoint, stop: () => child.kill('SIGTERM') };
}

/** A tools/list call to `endpoint` sent with this Host header (as a rebinding page's would). */
function listToolsAs(
  endpoint: string,
  host: string,
  authorization?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const target = new URL(endpoint);
  return new Promise((done, fail) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          host,
          ...(authorization ? { authorization } : {}),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', fail);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  });
}

test('mcp --http reads Host names and the token as the service does', async () => {
  const listed = await startMcpHttp(['--allowed-hosts', 'repkit.test', '--token', TOKEN]);
  try {
    const port = new URL(listed.endpoint).port;
    // A listed name, with or without the port; a loopback name; another name refused.
    for (const host of [`repkit.test:${port}`, 'REPKIT.TEST', `localhost:${port}`]) {
      const answer = await listToolsAs(listed.endpoint, host, `Bearer ${TOKEN}`);
      assert.equal(answer.status, 200, host);
      assert.match(answer.body, /check_url/);
    }
    const other = await listToolsAs(listed.endpoint, `other.test:${port}`, `Bearer ${TOKEN}`);
    assert.equal(other.status, 421);
    assert.match(JSON.parse(other.body).message, /"other\.test:\d+" \(see --allowed-hosts\)/);
    // A wrong token: refused, and told how to authenticate.
    const wrong = await listToolsAs(listed.endpoint, 'repkit.test', `Bearer ${TOKEN}x`);
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers['www-authenticate'], 'Bearer realm="repkit"');
  } finally {
    listed.stop();
  }
  const any = await startMcpHttp(['--allowed-hosts', '*']);
  try {
    assert.equal((await listToolsAs(any.endpoint, 'anything.test')).status, 200);
  } finally {
    any.stop();
  }
});

test('mcp --http on every address says what is open, as serve does', async () => {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '0', '--host', '0.0.0.0'], {
    env: childEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const warning = await new Promise<string>((done, fail) => {
      let err = '';
      child.stderr!.on('data', (d: Buffer) => {
        err += d;
        const found = /^repkit: warning: listening on every address.*$/m.exec(err);
        if (found) done(found[0]);
      });
      child.on('exit', () => fail(new Error(err)));
    });
    assert.equal(
      warning,
      'repkit: warning: listening on every address with no --token: anyone who reaches it may use it; no --allowed-hosts: any Host name is answered',
    );
  } finally {
    child.kill('SIGTERM');
  }
});
