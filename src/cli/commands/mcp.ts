import type { Command } from 'commander';
import { loadWithPeer } from '../../core/internal.ts';
import { isPublicAddress, RobotsClient } from '../../fetch/index.ts';
import { CliError } from '../errors.ts';
import {
  allowedHostsOf,
  hostList,
  listenError,
  openEndpointWarning,
  signalled,
  tokenOf,
} from '../endpoint.ts';
import { edgeClientOptions, fetchOptions, type EdgeOptions } from '../fetching.ts';
import type { Output } from '../output.ts';
import { collectAgents } from '../robots-source.ts';
import { packageVersion } from '../version.ts';

interface McpOptions extends EdgeOptions {
  agent?: string[];
  http?: number;
  host: string;
  token?: string;
  allowedHosts?: string[];
  userAgent: string;
  timeout: number;
  allowPrivateAddresses?: boolean;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`--http takes a port number, got "${value}"`);
  }
  return port;
}

export function registerMcp(program: Command, output: Output): void {
  fetchOptions(program.command('mcp'), true)
    .description("serve repkit's answers as MCP tools over stdio, for AI agents")
    .option(
      '-a, --agent <name>',
      "the crawler the tools ask for when a call names none (default: --user-agent's)",
      collectAgents,
    )
    .option(
      '--allow-private-addresses',
      'fetch from private, loopback and link-local addresses too',
    )
    .option(
      '--http <port>',
      'serve over Streamable HTTP at /mcp on this port, not stdio',
      parsePort,
    )
    .option('--host <host>', 'address to listen on with --http', '127.0.0.1')
    .option(
      '--token <token>',
      'with --http, require Authorization: Bearer <token> (default: REPKIT_TOKEN)',
    )
    .option(
      '--allowed-hosts <names>',
      'with --http, Host header values answered, comma-separated, * for any (env REPKIT_ALLOWED_HOSTS); default: loopback names and --host',
      (value: string) => hostList(value, '--allowed-hosts'),
    )
    .addHelpText(
      'after',
      `
Tools: check_url, usage, explain, lint_robots_txt, ai_crawlers (each takes url, and agent where
it applies). With --http, the same over Streamable HTTP at /mcp (the Host header checked, a
bearer token with --token or REPKIT_TOKEN). Needs the optional packages
@modelcontextprotocol/sdk and zod.

Example (a client's configuration):
  { "mcpServers": { "repkit": { "command": "npx", "args": ["repkit", "mcp"] } } }

Exit status: 0 the client closed the session (or the server was stopped), 2 usage or input
error (a missing package).`,
    )
    .action((options) => runMcp(options, output));
}

/** `repkit mcp`: the command's work, given its arguments and options as parsed. */
export async function runMcp(
  options: McpOptions,
  output: Output,
  until?: Promise<unknown>,
): Promise<void> {
  const { createMcpServer, serveMcpHttp } = await loadWithPeer(
    '@modelcontextprotocol/sdk',
    'repkit mcp',
    () => import('../../mcp/index.ts'),
  );
  if (options.allowPrivateAddresses) {
    output.err(
      'repkit: warning: private, loopback and link-local addresses may be fetched (--allow-private-addresses)',
    );
  }
  if (options.http !== undefined) {
    await serveOverHttp(options, options.http, serveMcpHttp, output, until ?? signalled());
    return;
  }
  const client = new RobotsClient({
    userAgent: options.userAgent,
    ...(options.agent ? { agent: options.agent } : {}),
    timeoutMs: options.timeout,
    allowAddress: options.allowPrivateAddresses ? () => true : isPublicAddress,
    onStoreError: () => {},
    ...edgeClientOptions(options),
  });
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = createMcpServer(client, packageVersion());
  await server.connect(new StdioServerTransport());
  // Served until the client closes stdin.
  await (until ?? new Promise<void>((done) => process.stdin.on('close', done)));
  await client.close();
}

/**
 * `--http`: the tools served by the service's house (see `serveMcpHttp`), with serve's token
 * rules, Host names, name hiding and budgets; until SIGINT or SIGTERM, then drained.
 */
async function serveOverHttp(
  options: McpOptions,
  port: number,
  serveMcpHttp: typeof import('../../mcp/index.ts').serveMcpHttp,
  output: Output,
  until: Promise<unknown>,
): Promise<void> {
  if (options.crawlerMaxPrice !== undefined) {
    throw new CliError('--crawler-max-price is not offered over --http: its callers are strangers');
  }
  const token = tokenOf(options.token);
  const allowedHosts = allowedHostsOf(options.allowedHosts);
  const { crawlerMaxPrice: _never, ...edge } = edgeClientOptions(options);
  const served = await serveMcpHttp({
    version: packageVersion(),
    port,
    host: options.host,
    userAgent: options.userAgent,
    ...(options.agent ? { agent: options.agent } : {}),
    timeoutMs: options.timeout,
    allowPrivateAddresses: Boolean(options.allowPrivateAddresses),
    access: {
      ...(token ? { token } : {}),
      ...(allowedHosts ? { allowedHosts } : {}),
    },
    ...edge,
  }).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, options.host, port);
  });
  output.err(
    `repkit ${packageVersion()}: serving MCP on ${served.url}${token ? ' (token required)' : ''}`,
  );
  const open = openEndpointWarning(options.host, {
    token: Boolean(token),
    allowedHosts: allowedHosts !== undefined,
  });
  if (open) output.err(open);
  await until;
  await served.close();
}
