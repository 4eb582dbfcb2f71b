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

/** MCP's own bounds over HTTP (each documented in the README's MCP section). */
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

/** The `/mcp` routes on the service's context (see the module comment). */
export function registerMcpRoutes(
  context: RouteContext,
  version: string,
  options: { host: string; allowedHosts?: readonly string[]; limits?: McpHttpLimits },
): void {
  const { app, client, work, verdicts } = context;
  const limits = options.limits ?? {};
  const callsPerClient = limits.callsPerClient ?? 4;
  const deadlineMs = limits.deadlineMs ?? 30_000;
  const streamsPerClient = limits.streamsPerClient ?? 2;
  const maxStreams = limits.streams ?? 64;
  const allowed = allowedHostSet(options.allowedHosts, options.host);
  const calls = new Counts();
  const streams = new Counts();

  /** A browser's `Origin` must name a host the server answers to (its own, at least). */
  const originAllowed = (request: FastifyRequest): boolean => {
    const origin = request.headers.origin;
    if (origin === undefined) return true; // not a browser: the Host check applies
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return false;
    }
    return allowed ? answersHost(allowed, host) : host === request.headers.host;
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!originAllowed(request)) {
      return refuse(
        reply,
        403,
        'forbidden-origin',
        `Origin ${JSON.stringify(request.headers.origin)} is not one this MCP server answers to`,
      );
    }
    const who = clientOf(request);
    const stream = request.method === 'GET';
    const counts = stream ? streams : calls;
    if (counts.get(who) >= (stream ? streamsPerClient : callsPerClient)) {
      return refuse(
        reply,
        429,
        'busy',
        `this client already has ${counts.get(who)} ${stream ? 'streams open' : 'requests in flight'}; try again when they are done`,
      );
    }
    if (stream && streams.total >= maxStreams) {
      return refuse(reply, 429, 'busy', 'the server has as many streams open as it keeps');
    }
    counts.add(who, 1);
    const res = reply.raw;
    res.once('close', () => counts.add(who, -1));
    const bounds: McpBounds = {
      robotsFor: (url) => budgetedRobotsFor(context, url, who),
      verdict: async (url, state, agent, explain) =>
        (await verdicts([url], [state], agent, who, explain))[0]!,
      lint: (body) => work.run('lint', { robots: body }, who),
    };
    const mcp = createMcpServer(client, version, bounds);
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
    if (stream) context.drain.stream(res);
    else {
      const deadline = setTimeout(() => {
        if (!res.headersSent) {
          res
            .writeHead(504, { 'content-type': 'application/json' })
            .end(
              JSON.stringify({ error: 'deadline', message: `no answer within ${deadlineMs} ms` }),
            );
        } else res.end();
      }, deadlineMs);
      res.once('close', () => clearTimeout(deadline));
    }
    reply.hijack();
    await mcp.connect(transport);
    await transport.handleRequest(request.raw as IncomingMessage, res, request.body);
  };

  for (const method of ['GET', 'POST', 'DELETE'] as const) {
    app.route({ method, url: '/mcp', schema: { hide: true }, handler: handle });
  }
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
