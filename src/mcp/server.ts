/**
 * `repkit mcp`: repkit's answers as MCP tools, for AI agents that ask "may I fetch this, may I
 * use it?" (the official SDK, an optional peer like the service's packages). Every tool that
 * reads a site goes through one `RobotsClient`: its cache, its address guard and its fetch
 * rules; results are structured and name their sources (the deciding line, the fetch state).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RobotsClient } from '../fetch/index.ts';
import {
  aiCrawlers,
  checkUrl,
  clientBounds,
  lintRobotsTxt,
  usageOf,
  type McpBounds,
  type McpTools,
} from './tools.ts';

export type { McpBounds } from './tools.ts';

/** The tools' names: outside tools call them. */
export const MCP_TOOLS = [
  'check_url',
  'usage',
  'explain',
  'lint_robots_txt',
  'ai_crawlers',
] as const;

const url = z.string().url().describe('An absolute http(s) URL');
const agent = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
  .optional()
  .describe(
    "The crawler asking (a product token such as GPTBot, or a User-Agent); several are ordered fallbacks. Default: the server's own",
  );

/**
 * A tool's arguments: these and no others. The SDK would drop an argument its schema lacks
 * and answer anyway; strict, the call is refused naming it, as the listed schema says
 * (`additionalProperties: false`).
 */
function takes<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object(shape).strict();
}

// Output schemas name the fields every answer has; answers carry more (`passthrough`).

/** What the server tells a client's model about its tools, once, at connection. */
const INSTRUCTIONS = [
  "repkit answers a crawler's questions about a site as Google reads robots.txt.",
  'Before fetching a URL for an agent, call check_url (may this agent fetch it?); explain says why.',
  'usage says whether the page may be fetched, indexed, used for AI training or for search, with each source.',
  "ai_crawlers lists which well-known AI and search crawlers a site lets in; lint_robots_txt reviews a site's robots.txt or a text.",
  'Name the crawler with `agent` (a product token such as GPTBot, or a User-Agent). An unreachable robots.txt, or a bot wall in its place, disallows for now: ask again later rather than fetching.',
].join(' ');

/**
 * Every tool only reads: it changes nothing, asking twice gives the same answer (a cached
 * robots.txt), and it reaches the open web (the site's robots.txt and pages).
 */
const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

/** A tool's title, said twice as the protocol asks (the title and the annotations' title). */
function readOnly(title: string) {
  return { title, annotations: { title, ...READ_ONLY } };
}

/** A tool's answer: the structured result, and the same as text for clients that show text. */
function answer(result: Record<string, unknown>) {
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(result) }],
    structuredContent: result,
  };
}

/** An MCP server whose tools answer through `client` (and `bounds`, over HTTP). */
export function createMcpServer(
  client: RobotsClient,
  version: string,
  bounds: McpBounds = clientBounds(client),
): McpServer {
  const server = new McpServer({ name: 'repkit', version }, { instructions: INSTRUCTIONS });
  const tools: McpTools = { client, bounds };
  const send = (result: object) => answer({ ...result } as Record<string, unknown>);
  server.registerTool('check_url', CHECK_URL, async (args) => send(await checkUrl(tools, args)));
  server.registerTool('usage', USAGE, async (args) => send(await usageOf(tools, args)));
  server.registerTool('explain', EXPLAIN, async (args) => send(await checkUrl(tools, args, true)));
  server.registerTool('lint_robots_txt', LINT, async (args) =>
    send(await lintRobotsTxt(tools, args)),
  );
  server.registerTool('ai_crawlers', AI_CRAWLERS, async (args) =>
    send(await aiCrawlers(tools, args)),
  );
  return server;
}

export const CHECK_URL = {
  ...readOnly('May this agent fetch this URL?'),
  description:
    "The URL's robots.txt (fetched and cached) as Google reads it: the verdict, the deciding line and rule, and the fetch state. An unreachable robots.txt disallows for now; so does a bot wall or a payment demand answering in its place (reason robots-txt-challenge, with `edge`: what answered and the evidence).",
  inputSchema: takes({ url, agent }),
  outputSchema: z
    .object({
      allowed: z.boolean(),
      line: z.number(),
      reason: z.string(),
      robotsUrl: z.string(),
      status: z.number(),
    })
    .passthrough(),
};

export const USAGE = {
  ...readOnly('May this agent fetch, index, train AI on or use for search this URL?'),
  description:
    "One combined answer with each part's source: robots.txt (Allow/Disallow, Content-Usage, Content-Signal, License lines), the site's tdmrep.json and the page's headers and head, fetched only where robots.txt allows; with llms, the site's llms.txt too (reported in llmsTxt, never a permission).",
  inputSchema: takes({
    url,
    agent,
    llms: z
      .boolean()
      .optional()
      .describe(
        "Also fetch the site's llms.txt (its robots.txt LLMs: line, else /llms.txt) where robots.txt allows it, and report it in llmsTxt.",
      ),
  }),
  outputSchema: z.object({ url: z.string(), agent: z.array(z.string()) }).passthrough(),
};

const EXPLAIN = {
  ...readOnly('Why may (or may not) this agent fetch this URL?'),
  description:
    'The verdict with everything that led to it: the groups chosen, every rule that matched with its length, the winner and the tie-break.',
  inputSchema: takes({ url, agent }),
  outputSchema: z
    .object({ allowed: z.boolean(), line: z.number(), reason: z.string() })
    .passthrough(),
};

const LINT = {
  ...readOnly('Lint a robots.txt'),
  description:
    "What Google reads, accepts with typos, ignores or never uses: a robots.txt given as text, or a site's (fetched).",
  inputSchema: takes({
    url: url.optional().describe('A URL of the site whose robots.txt is linted'),
    text: z.string().max(1_024_000).optional().describe('A robots.txt body'),
  }),
  outputSchema: z
    .object({ robots: z.string(), errors: z.number(), warnings: z.number() })
    .passthrough(),
};

const AI_CRAWLERS = {
  ...readOnly('Which AI and search crawlers does this site let in?'),
  description:
    "Each well-known crawler (repkit's list and ai.robots.txt's): may it fetch the URL's path, by its own group or the * group.",
  inputSchema: takes({ url }),
  outputSchema: z
    .object({ robotsUrl: z.string(), crawlers: z.array(z.record(z.unknown())) })
    .passthrough(),
};
