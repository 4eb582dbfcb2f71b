import type { Command } from 'commander';
import { loadWithPeer } from '../../core/internal.ts';
import { isPublicAddress, RobotsClient } from '../../fetch/index.ts';
import { DEFAULT_USER_AGENT, parseMilliseconds } from '../fetching.ts';
import type { Output } from '../output.ts';
import { collectAgents } from '../robots-source.ts';
import { packageVersion } from '../version.ts';

interface McpOptions {
  agent?: string[];
  userAgent: string;
  timeout: number;
  allowPrivateAddresses?: boolean;
}

export function registerMcp(program: Command, output: Output): void {
  program
    .command('mcp')
    .description("serve repkit's answers as MCP tools over stdio, for AI agents")
    .option(
      '-a, --agent <name>',
      "the crawler the tools ask for when a call names none (default: --user-agent's)",
      collectAgents,
    )
    .option('--user-agent <header>', 'User-Agent header sent when fetching', DEFAULT_USER_AGENT)
    .option('--timeout <ms>', 'time limit for each fetch', parseMilliseconds, 15_000)
    .option(
      '--allow-private-addresses',
      'fetch from private, loopback and link-local addresses too',
    )
    .addHelpText(
      'after',
      `
Tools: check_url, usage, explain, lint_robots_txt, ai_crawlers (each takes url, and agent where
it applies). Needs the optional packages @modelcontextprotocol/sdk and zod.

Example (a client's configuration):
  { "mcpServers": { "repkit": { "command": "npx", "args": ["repkit", "mcp"] } } }

Exit status: 0 the client closed the session, 2 usage or input error (a missing package).`,
    )
    .action(async (options: McpOptions) => {
      const { createMcpServer } = await loadWithPeer(
        '@modelcontextprotocol/sdk',
        'repkit mcp',
        () => import('../../mcp/index.ts'),
      );
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      const client = new RobotsClient({
        userAgent: options.userAgent,
        ...(options.agent ? { agent: options.agent } : {}),
        timeoutMs: options.timeout,
        allowAddress: options.allowPrivateAddresses ? () => true : isPublicAddress,
        onStoreError: () => {},
      });
      const server = createMcpServer(client, packageVersion());
      await server.connect(new StdioServerTransport());
      if (options.allowPrivateAddresses) {
        output.err(
          'repkit: warning: private, loopback and link-local addresses may be fetched (--allow-private-addresses)',
        );
      }
      // Served until the client closes stdin.
      await new Promise<void>((done) => process.stdin.on('close', done));
      await client.close();
    });
}
