import type { Command } from 'commander';
import { loadWithPeer } from '../../core/internal.ts';
import { isPublicAddress, RobotsClient } from '../../fetch/index.ts';
import { CliError } from '../errors.ts';
import { allowedHostsOf, hostList, openEndpointWarning } from '../endpoint.ts';
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
  fetchOptions(program.command('mcp'))
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
    .action(async (options: McpOptions) => {
      const { createMcpServer, serveMcpHttp } = await loadWithPeer(
        '@modelcontextprotocol/sdk',
        'repkit mcp',
        () => import('../../mcp/index.ts'),
      );
      const client = new RobotsClient({
        userAgent: options.userAgent,
        ...(options.agent ? { agent: options.agent } : {}),
        timeoutMs: options.timeout,
        allowAddress: options.allowPrivateAddresses ? () => true : isPublicAddress,
        onStoreError: () => {},
        ...edgeClientOptions(options),
      });
      if (options.allowPrivateAddresses) {
        output.err(
          'repkit: warning: private, loopback and link-local addresses may be fetched (--allow-private-addresses)',
        );
      }
      if (options.http !== undefined) {
        const token = options.token ?? process.env.REPKIT_TOKEN;
        const allowedHosts = allowedHostsOf(options.allowedHosts);
        const served = await serveMcpHttp(client, packageVersion(), {
          port: options.http,
          host: options.host,
          ...(token ? { token } : {}),
          ...(allowedHosts ? { allowedHosts } : {}),
        });
        output.err(
          `repkit ${packageVersion()}: serving MCP on ${served.url}${token ? ' (token required)' : ''}`,
        );
        const open = openEndpointWarning(options.host, {
          token: Boolean(token),
          allowedHosts: allowedHosts !== undefined,
        });
        if (open) output.err(open);
        // Served until stopped.
        await new Promise<void>((done) => {
          process.once('SIGINT', done);
          process.once('SIGTERM', done);
        });
        await served.close();
        await client.close();
        return;
      }
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      const server = createMcpServer(client, packageVersion());
      await server.connect(new StdioServerTransport());
      // Served until the client closes stdin.
      await new Promise<void>((done) => process.stdin.on('close', done));
      await client.close();
    });
}
