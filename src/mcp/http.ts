/**
 * `repkit mcp --http <port>`: the tools over MCP's Streamable HTTP at `/mcp`, stateless (a
 * server and a transport per request), served by the service's own house (`startService`
 * with these routes in place of the API): the same token rules, Host names, rate limit,
 * budgets of new origins and bytes, name hiding, worker threads, metrics and shutdown as
 * `repkit serve`, one implementation for both. Beyond those, what MCP asks for: the `Origin`
 * header checked (the specification's MUST, against DNS rebinding from a browser), and bounds
 * of its own: tool calls in flight per client, a deadline for each, and open SSE streams.
 */
import type { IncomingMessage } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { allowedHostSet, answersHost } from '../access/index.ts';
import {
  budgetedRobotsFor,
  clientOf,
  startService,
  type RouteContext,
  type ServiceOptions,
} from '../server/index.ts';
import { createMcpServer, type McpBounds } from './server.ts';

/** MCP's own bounds over HTTP (each documented in docs/mcp.md). */
export interface McpHttpLimits {
  /** Requests (tool calls) in flight per client; past it 429. Default 4. */
  callsPerClient?: number;
  /** How long one request may take before it is answered with an error. Default 30 s. */
  deadlineMs?: number;
  /** Open SSE streams (GET /mcp) per client, and in all; past them 429. Defaults 2 and 64. */
  streamsPerClient?: number;
  streams?: number;
}

export interface McpHttpOptions extends Omit<ServiceOptions, 'routes'> {
  version: string;
  limits?: ServiceOptions['limits'];
  mcp?: McpHttpLimits;
}

function refuse(reply: FastifyReply, status: number, error: string, message: string) {
  return reply.code(status).send({ error, message });
}

/** A count per client, for calls and streams in flight. */
class Counts {
  readonly #counts = new Map<string, number>();
  total = 0;
  get(who: string): number {
    return this.#counts.get(who) ?? 0;
  }
  add(who: string, by: 1 | -1): void {
    const next = this.get(who) + by;
    if (next > 0) this.#counts.set(who, next);
    else this.#counts.delete(who);
    this.total += by;
  }
}

/** Who may call `/mcp` now: the browser's Origin, and each client's calls and streams. */
class McpGate {
  readonly deadlineMs: number;
  readonly #limits: { calls: number; streams: number; maxStreams: number };
  readonly #allowed: ReturnType<typeof allowedHostSet>;
  readonly #calls = new Counts();
  readonly #streams = new Counts();

  constructor(options: { host: string; allowedHosts?: readonly string[]; limits?: McpHttpLimits }) {
    const limits = options.limits ?? {};
    this.deadlineMs = limits.deadlineMs ?? 30_000;
    this.#limits = {
      calls: limits.callsPerClient ?? 4,
      streams: limits.streamsPerClient ?? 2,
      maxStreams: limits.streams ?? 64,
    };
    this.#allowed = allowedHostSet(options.allowedHosts, options.host);
  }

  /** Why the request is refused (status, code, message), or undefined when it may go on. */
  refusal(request: FastifyRequest, who: string): [number, string, string] | undefined {
    if (!this.#originAllowed(request)) {
      return [
        403,
        'forbidden-origin',
        `Origin ${JSON.stringify(request.headers.origin)} is not one this MCP server answers to`,
      ];
    }
    const stream = request.method === 'GET';
    const counts = stream ? this.#streams : this.#calls;
    if (counts.get(who) >= (stream ? this.#limits.streams : this.#limits.calls)) {
      return [
        429,
        'busy',
        `this client already has ${counts.get(who)} ${stream ? 'streams open' : 'requests in flight'}; try again when they are done`,
      ];
    }
    if (stream && this.#streams.total >= this.#limits.maxStreams) {
      return [429, 'busy', 'the server has as many streams open as it keeps'];
    }
    return undefined;
  }

  /** Counts the request as its client's until its response closes. */
  hold(request: FastifyRequest, who: string, res: NodeJS.EventEmitter): void {
    const counts = request.method === 'GET' ? this.#streams : this.#calls;
    counts.add(who, 1);
    res.once('close', () => counts.add(who, -1));
  }

  /** A browser's `Origin` must name a host the server answers to (its own, at least). */
  #originAllowed(request: FastifyRequest): boolean {
    const origin = request.headers.origin;
    if (origin === undefined) return true; // not a browser: the Host check applies
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return false;
    }
    return this.#allowed ? answersHost(this.#allowed, host) : host === request.headers.host;
  }
}

/** The `/mcp` routes on the service's context (see the module comment). */
export function registerMcpRoutes(
  context: RouteContext,
  version: string,
  options: { host: string; allowedHosts?: readonly string[]; limits?: McpHttpLimits },
): void {
  const gate = new McpGate(options);
  const handler = (request: FastifyRequest, reply: FastifyReply) =>
    handleMcp(context, version, gate, request, reply);
  for (const method of ['GET', 'POST', 'DELETE'] as const) {
    context.app.route({ method, url: '/mcp', schema: { hide: true }, handler });
  }
}

/** One MCP request: refused, or answered by a server of its own on the service's bounds. */
async function handleMcp(
  context: RouteContext,
  version: string,
  gate: McpGate,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const who = clientOf(request);
  const refused = gate.refusal(request, who);
  if (refused) return refuse(reply, ...refused);
  const res = reply.raw;
  gate.hold(request, who, res);
  const mcp = createMcpServer(context.client, version, serviceBounds(context, who));
  // Answers as JSON, not a stream: nothing is sent before the result, so a call past its
  // deadline can still be answered with an error of its own.
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.once('close', () => {
    void transport.close();
    void mcp.close();
  });
  // A stream carries no work: it ends when the server stops. A call has its deadline.
  if (request.method === 'GET') context.drain.stream(res);
  else armDeadline(res, gate.deadlineMs);
  reply.hijack();
  await mcp.connect(transport);
  await transport.handleRequest(request.raw as IncomingMessage, res, request.body);
}

/** The tools' work on the service's bounds: its budgets, its verdicts, its workers. */
function serviceBounds(context: RouteContext, who: string): McpBounds {
  return {
    robotsFor: (url) => budgetedRobotsFor(context, url, who),
    verdict: async (url, state, agent, explain) =>
      (await context.verdicts([url], [state], agent, who, explain))[0]!,
    lint: (body) => context.work.run('lint', { robots: body }, who),
  };
}

/** A call unanswered after `deadlineMs` is answered 504 (or cut, once its answer began). */
function armDeadline(res: FastifyReply['raw'], deadlineMs: number): void {
  const deadline = setTimeout(() => {
    if (!res.headersSent) {
      res
        .writeHead(504, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'deadline', message: `no answer within ${deadlineMs} ms` }));
    } else res.end();
  }, deadlineMs);
  res.once('close', () => clearTimeout(deadline));
}

/**
 * Serves the tools over Streamable HTTP at `/mcp` (see the module comment); resolves once
 * it listens, with its URL and a `close` that drains it.
 */
export async function serveMcpHttp(
  options: McpHttpOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const { version, mcp, ...service } = options;
  const host = service.host ?? '127.0.0.1';
  const allowedHosts = service.access?.allowedHosts;
  const running = await startService({
    ...service,
    version,
    routes: (context) =>
      registerMcpRoutes(context, version, {
        host,
        ...(allowedHosts ? { allowedHosts } : {}),
        ...(mcp ? { limits: mcp } : {}),
      }),
  });
  return { url: `${running.url}/mcp`, close: running.close };
}
