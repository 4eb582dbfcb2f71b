/**
 * `repkit mcp --http <port>`: the same tools over MCP's Streamable HTTP, at `/mcp`, stateless
 * (a server and a transport per request, one fetch client for all). As for the service: a
 * bearer token when one is set, the Host header checked against the names it answers for,
 * and bodies bounded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  allowedHostSet,
  answersHost,
  bearerCheck,
  drainOf,
  misdirectedMessage,
  UNAUTHORIZED,
} from '../access/index.ts';
import type { RobotsClient } from '../fetch/index.ts';
import { createMcpServer } from './server.ts';

export interface McpHttpOptions {
  port: number;
  host: string;
  /** Requests must send `Authorization: Bearer <token>`. */
  token?: string;
  /**
   * Host header values answered (names, `name:port`, or `*` for any), as the service reads
   * them: default the loopback names and `host`; any, when `host` is every address.
   */
  allowedHosts?: readonly string[];
}

/** The most of a request body read: a tool call is a few hundred bytes. */
const MAX_BODY = 1024 * 1024;

function refuse(res: ServerResponse, status: number, error: string, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ error, message }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_BODY) throw new RangeError(`the body is over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  return length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function serveMcpHttp(
  client: RobotsClient,
  version: string,
  options: McpHttpOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const allowed = allowedHostSet(options.allowedHosts, options.host);
  const hasToken = options.token === undefined ? undefined : bearerCheck(options.token);
  const server = createServer((req, res) => {
    // A GET opens a stream of server messages: no work, ended when stopping begins.
    if (req.method === 'GET') drain.stream(res);
    void (async () => {
      if (!answersHost(allowed, req.headers.host)) {
        const message = misdirectedMessage(req.headers.host, 'this MCP server');
        return refuse(res, 421, 'misdirected-request', message);
      }
      if (hasToken && !hasToken(req.headers.authorization)) {
        res.setHeader('www-authenticate', UNAUTHORIZED.challenge);
        return refuse(res, 401, 'unauthorized', UNAUTHORIZED.message);
      }
      if ((req.url ?? '').split('?')[0] !== '/mcp')
        return refuse(res, 404, 'not-found', 'the MCP endpoint is /mcp');
      let body: unknown;
      try {
        body = req.method === 'POST' ? await readJson(req) : undefined;
      } catch (error) {
        return refuse(res, 400, 'invalid-request', (error as Error).message);
      }
      const mcp = createMcpServer(client, version);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) refuse(res, 500, 'internal-error', 'internal error');
    });
  });
  const drain = drainOf(server);
  await new Promise<void>((done) => server.listen(options.port, options.host, done));
  const { port } = server.address() as { port: number };
  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shown}:${port}/mcp`,
    close: async () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      await drain.begin();
      await closed;
    },
  };
}
