/**
 * One case list (cases.ts), every surface: the library's `RobotsClient.check`, the CLI's
 * `check --json` (its run function), the service's `GET` and `POST /v1/check` over HTTP and
 * their handlers called directly, and MCP's `check_url` through the official SDK client and
 * its tool function called directly. Each answers every case as the library does, field for
 * field (fetch times and cache state aside, as each surface fetches on its own): a field
 * added to the library's answer that a surface drops fails here. A second test holds the
 * answer's three definitions (the TypeScript type, the service's JSON schema, MCP's output
 * schema) to one another.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Command } from 'commander';
import ts from 'typescript';
import { typescriptProgram } from '../helpers/typescript.ts';
import { join } from 'node:path';
import { RobotsClient } from '../../src/fetch/index.ts';
import { startService, type RunningService } from '../../src/server/index.ts';
import {
  checkMany,
  checkOne,
  registerCheckRoutes,
  usageAnswer,
} from '../../src/server/routes/checks.ts';
import type { RouteContext } from '../../src/server/routes/context.ts';
import { checkOne as checkOneSchema, usage as usageSchema } from '../../src/server/schemas.ts';
import { serveMcpHttp } from '../../src/mcp/index.ts';
import { CHECK_URL, USAGE } from '../../src/mcp/server.ts';
import { checkUrl, clientBounds, usageOf, type McpTools } from '../../src/mcp/tools.ts';
import { registerCheck, runCheck } from '../../src/cli/commands/check.ts';
import { registerUsage, runUsage } from '../../src/cli/commands/usage.ts';
import { pc } from '../../src/cli/toolkit.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';
import { ROOT } from '../helpers/shared.ts';
import { PAGE, SURFACE_CASES, type SurfaceCase } from './cases.ts';

type Answer = Record<string, unknown>;
interface Surface {
  name: string;
  ask(url: string, agent: string): Promise<Answer>;
}

/** Each case's own site (its own origin: no surface reads another case's cached file). */
const sites = new Map<SurfaceCase, TestServer>();
const closing: { close(): Promise<void> }[] = [];
let library: RobotsClient;
let service: RunningService;
let context: RouteContext | undefined;
let mcp: Client;

before(async () => {
  for (const c of SURFACE_CASES) {
    const site = await httpServer((req, res) => {
      if (req.url === '/.well-known/tdmrep.json') return void res.writeHead(404).end();
      if (req.url !== '/robots.txt') return void res.writeHead(200, PAGE.headers).end(PAGE.body);
      if (c.robots.status === 0) return void req.socket.destroy();
      const type = c.robots.type ?? 'text/plain';
      res.writeHead(c.robots.status, { 'content-type': type }).end(c.robots.body ?? '');
    });
    sites.set(c, site);
    closing.push(site);
  }
  library = new RobotsClient({ userAgent: 'ExampleBot/1.0', allowAddress: () => true });
  closing.push(library);
  service = await startService({
    port: 0,
    allowPrivateAddresses: true,
    // The service's own check routes, and its route context for the handlers called directly.
    routes: (given) => {
      context = given;
      registerCheckRoutes(given);
    },
  });
  closing.push(service);
  const served = await serveMcpHttp({ version: 'test', port: 0, allowPrivateAddresses: true });
  closing.push(served);
  mcp = new Client({ name: 'surfaces-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  closing.push(mcp);
});
after(async () => {
  for (const resource of closing.reverse()) await resource.close().catch(() => {});
  process.exitCode = 0;
});

/** MCP's tools over stdio (straight through a client of their own), closed after `ask`. */
async function withOwnTools(ask: (tools: McpTools) => Promise<Answer>): Promise<Answer> {
  const client = new RobotsClient({ userAgent: 'repkit/0.1', allowAddress: () => true });
  try {
    return await ask({ client, bounds: clientBounds(client) });
  } finally {
    await client.close();
  }
}

/** A CLI command's `--json` answer, its options read by the command's own parser. */
async function cliJson(
  register: typeof registerCheck,
  name: string,
  run: (url: string, options: never, output: ReturnType<typeof memoryOutput>) => Promise<void>,
  url: string,
  agent: string,
): Promise<Answer> {
  const output = memoryOutput();
  const program = new Command('repkit').exitOverride();
  register(program, output);
  const command = program.commands.find((c) => c.name() === name)!;
  command.parseOptions(['--json', '--agent', agent]);
  await run(url, command.opts() as never, output);
  process.exitCode = 0;
  assert.equal(output.lines.length, 1, output.lines.join('\n'));
  return JSON.parse(output.lines[0]!) as Answer;
}

function memoryOutput() {
  const lines: string[] = [];
  return {
    lines,
    out: (line: string) => lines.push(line),
    err: () => {},
    color: pc.createColors(false),
    errIsTTY: false,
  };
}

/** The CLI's `check --json`. */
async function cliCheck(url: string, agent: string): Promise<Answer> {
  return cliJson(registerCheck, 'check', (u, o, out) => runCheck([u], o, out), url, agent);
}

const checkSurfaces: Surface[] = [
  { name: 'CLI check --json', ask: cliCheck },
  {
    name: 'GET /v1/check',
    ask: async (url, agent) => {
      const query = new URLSearchParams({ url, agent });
      const answer = await fetch(`${service.url}/v1/check?${query}`);
      assert.equal(answer.status, 200);
      return (await answer.json()) as Answer;
    },
  },
  {
    name: 'POST /v1/check',
    ask: async (url, agent) => {
      const answer = await fetch(`${service.url}/v1/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ urls: [url], agent }),
      });
      assert.equal(answer.status, 200);
      return ((await answer.json()) as { results: Answer[] }).results[0]!;
    },
  },
  {
    name: "the service's checkOne handler",
    ask: async (url, agent) => ({ ...(await checkOne(context!, { url, agent }, 'test')) }),
  },
  {
    name: "the service's checkMany handler",
    ask: async (url, agent) =>
      ({ ...(await checkMany(context!, { urls: [url], agent }, 'test')).results[0] }) as Answer,
  },
  {
    name: 'MCP check_url (SDK client over HTTP)',
    ask: async (url, agent) => {
      const result = await mcp.callTool({ name: 'check_url', arguments: { url, agent } });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      return result.structuredContent as Answer;
    },
  },
  {
    name: "MCP's checkUrl tool",
    ask: (url, agent) =>
      withOwnTools(async (tools) => ({ ...(await checkUrl(tools, { url, agent })) })),
  },
];

/** What may differ between surfaces: when each fetched, and whether from its cache. */
function comparable(answer: Answer): Answer {
  const { fetchedAt, expiresAt, source, ...rest } = answer;
  return {
    ...rest,
    fetchedAt: typeof fetchedAt,
    expiresAt: typeof expiresAt,
    source: source === 'fetched' || source === 'cache' ? 'fetched or cache' : source,
  };
}

describe('every surface answers the shared cases as the library does', () => {
  for (const c of SURFACE_CASES) {
    test(c.name, { timeout: 120_000 }, async () => {
      const url = `${sites.get(c)!.origin}${c.path}`;
      const expected = { ...(await library.check(url, { agent: c.agent })) } as Answer;
      const held = Object.fromEntries(Object.keys(c.expect).map((k) => [k, expected[k]]));
      assert.deepEqual(held, c.expect, 'the library');
      for (const surface of checkSurfaces) {
        const answer = await surface.ask(url, c.agent);
        assert.deepEqual(comparable(answer), comparable(expected), surface.name);
      }
    });
  }
});

/** The usage question (may the page be fetched, indexed, used for AI training or search). */
const usageSurfaces: Surface[] = [
  {
    name: 'CLI usage --json',
    ask: (url, agent) =>
      cliJson(registerUsage, 'usage', (u, o, out) => runUsage(u, o, out), url, agent),
  },
  {
    name: 'GET /v1/usage',
    ask: async (url, agent) => {
      const answer = await fetch(`${service.url}/v1/usage?${new URLSearchParams({ url, agent })}`);
      assert.equal(answer.status, 200);
      return (await answer.json()) as Answer;
    },
  },
  {
    name: "the service's usageAnswer handler",
    ask: async (url, agent) => ({ ...(await usageAnswer(context!, { url, agent }, 'test')) }),
  },
  {
    name: 'MCP usage (SDK client over HTTP)',
    ask: async (url, agent) => {
      const result = await mcp.callTool({ name: 'usage', arguments: { url, agent } });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      return result.structuredContent as Answer;
    },
  },
  {
    name: "MCP's usageOf tool",
    ask: (url, agent) =>
      withOwnTools(async (tools) => ({ ...(await usageOf(tools, { url, agent })) })),
  },
];

/** A usage answer as surfaces may differ: whether its robots.txt came from a cache. */
function comparableUsage(answer: Answer): Answer {
  const robotsTxt = answer['robotsTxt'] as Answer | undefined;
  if (!robotsTxt) return answer;
  const { source, ...rest } = robotsTxt;
  return {
    ...answer,
    robotsTxt: { ...rest, source: source === 'stale' ? source : 'fetched or cache' },
  };
}

describe('every surface answers the usage question as the library does', () => {
  for (const c of SURFACE_CASES) {
    test(c.name, { timeout: 120_000 }, async () => {
      const url = `${sites.get(c)!.origin}${c.path}`;
      const expected = { ...(await library.usage(url, { agent: c.agent })) } as Answer;
      assert.equal((expected['fetch'] as { may: boolean }).may, c.expect.allowed, 'the library');
      for (const surface of usageSurfaces) {
        const answer = await surface.ask(url, c.agent);
        assert.deepEqual(comparableUsage(answer), comparableUsage(expected), surface.name);
      }
    });
  }
});

test("the cases reach a check's optional fields, so that a surface dropping one fails", async () => {
  const seen = new Set<string>();
  for (const c of SURFACE_CASES) {
    const answer = await library.check(`${sites.get(c)!.origin}${c.path}`, { agent: c.agent });
    for (const key of Object.keys(answer)) seen.add(key);
  }
  for (const field of ['rule', 'requestUrl', 'agentNotes', 'notRobotsTxt', 'error']) {
    assert.ok(seen.has(field), `no case's answer has ${field}`);
  }
});

/** The property names of an interface of the source, and which of them are optional. */
function interfaceFields(file: string, name: string): Map<string, boolean> {
  const program = typescriptProgram([file]);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const declaration = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  )!;
  const type = checker.getTypeAtLocation(declaration);
  return new Map(
    checker
      .getPropertiesOfType(type)
      .map((p) => [p.name, (p.flags & ts.SymbolFlags.Optional) !== 0] as const),
  );
}

test("a check's three definitions agree: the type, the service's schema, MCP's output schema", () => {
  const fields = interfaceFields(join(ROOT, 'src/fetch/answers/verdict.ts'), 'CheckResult');
  assert.ok(fields.size > 10, 'the type is read');
  // The service and MCP answer without the explanation (`explain` is its own route and tool).
  fields.delete('explanation');
  const schema = checkOneSchema.response[200];
  assert.deepEqual(Object.keys(schema.properties).sort(), [...fields.keys()].sort());
  for (const required of schema.required) {
    assert.equal(fields.get(required), false, `${required} is required by the schema and the type`);
  }
  for (const [field, optional] of fields) {
    if (!optional) assert.ok((schema.required as readonly string[]).includes(field), field);
  }
  const mcpShape = CHECK_URL.outputSchema.shape as Record<string, { isOptional(): boolean }>;
  for (const [field, zod] of Object.entries(mcpShape)) {
    assert.ok(fields.has(field), `MCP names ${field}, which a check has`);
    if (!zod.isOptional()) assert.equal(fields.get(field), false, `${field} is always there`);
  }
});

test("a usage answer's three definitions agree: the type, the service's schema, MCP's output schema", () => {
  const fields = interfaceFields(join(ROOT, 'src/fetch/answers/usage.ts'), 'UsageAnswer');
  assert.ok(fields.size >= 9, 'the type is read');
  const schema = usageSchema.response[200] as { properties: Record<string, unknown> };
  assert.deepEqual(Object.keys(schema.properties).sort(), [...fields.keys()].sort());
  const mcpShape = USAGE.outputSchema.shape as Record<string, { isOptional(): boolean }>;
  for (const [field, zod] of Object.entries(mcpShape)) {
    assert.ok(fields.has(field), `MCP names ${field}, which a usage answer has`);
    if (!zod.isOptional()) assert.equal(fields.get(field), false, `${field} is always there`);
  }
});
