/**
 * `repkit mcp`: repkit's answers as MCP tools, for AI agents that ask "may I fetch this, may I
 * use it?" (the official SDK, an optional peer like the service's packages). Every tool that
 * reads a site goes through one `RobotsClient`: its cache, its address guard and its fetch
 * rules; results are structured and name their sources (the deciding line, the fetch state).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { lint, type LintReport } from '../core/index.ts';
import { KNOWN_AGENTS } from '../core/agents-entry.ts';
import { usedEntry } from '../cache/internal.ts';
import type { CheckResult, RobotsClient, RobotsState } from '../fetch/index.ts';
import { crawlerAccess } from '../fetch/internal.ts';

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

/** A tool's answer: the structured result, and the same as text for clients that show text. */
function answer(result: Record<string, unknown>) {
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(result) }],
    structuredContent: result,
  };
}

/**
 * What a tool's work goes through: the robots.txt state of a URL (over HTTP, from the asking
 * client's budget of new origins), a verdict and a body's lint (over HTTP, where the service
 * makes its own: a large file's checks and every lint on its workers). Over stdio the one
 * user is the operator: straight through the client.
 */
export interface McpBounds {
  robotsFor(url: string): Promise<RobotsState>;
  /** The verdict for `url` with its state, as `RobotsClient.verdict` makes it. */
  verdict(
    url: string,
    state: RobotsState,
    agent: string | string[] | undefined,
    explain?: boolean,
  ): CheckResult | Promise<CheckResult>;
  lint(body: string | Uint8Array): Promise<LintReport>;
}

/** An MCP server whose tools answer through `client` (and `bounds`, over HTTP). */
export function createMcpServer(
  client: RobotsClient,
  version: string,
  bounds: McpBounds = {
    robotsFor: (url) => client.robotsFor(url),
    verdict: (url, state, agent, explain = false) => {
      const { agents, notes } = client.names(agent);
      return client.verdict(url, state, { agents, agentNotes: notes, explain });
    },
    lint: async (body) => lint(body),
  },
): McpServer {
  const server = new McpServer({ name: 'repkit', version }, { instructions: INSTRUCTIONS });
  /** The verdict for `url` as `check` makes it, through the bounds. */
  const check = async (url: string, agent: string | string[] | undefined, explain = false) =>
    bounds.verdict(url, await bounds.robotsFor(url), agent, explain);

  server.registerTool(
    'check_url',
    {
      title: 'May this agent fetch this URL?',
      annotations: { title: 'May this agent fetch this URL?', ...READ_ONLY },
      description:
        "The URL's robots.txt (fetched and cached) as Google reads it: the verdict, the deciding line and rule, and the fetch state. An unreachable robots.txt disallows for now; so does a bot wall or a payment demand answering in its place (reason robots-txt-challenge, with `edge`: what answered and the evidence).",
      inputSchema: { url, agent },
      outputSchema: z
        .object({
          allowed: z.boolean(),
          line: z.number(),
          reason: z.string(),
          robotsUrl: z.string(),
          status: z.number(),
        })
        .passthrough(),
    },
    async ({ url, agent }) => answer({ ...(await check(url, agent)) }),
  );

  server.registerTool(
    'usage',
    {
      title: 'May this agent fetch, index, train AI on or use for search this URL?',
      annotations: {
        title: 'May this agent fetch, index, train AI on or use for search this URL?',
        ...READ_ONLY,
      },
      description:
        "One combined answer with each part's source: robots.txt (Allow/Disallow, Content-Usage, Content-Signal), the site's tdmrep.json and the page's headers and head, fetched only where robots.txt allows.",
      inputSchema: { url, agent },
      outputSchema: z.object({ url: z.string(), agent: z.array(z.string()) }).passthrough(),
    },
    async ({ url, agent }) => {
      // Its robots.txt first, through the bounds; the rest of the answer reads it cached.
      await bounds.robotsFor(url);
      return answer({ ...(await client.usage(url, agent ? { agent } : {})) } as Record<
        string,
        unknown
      >);
    },
  );

  server.registerTool(
    'explain',
    {
      title: 'Why may (or may not) this agent fetch this URL?',
      annotations: { title: 'Why may (or may not) this agent fetch this URL?', ...READ_ONLY },
      description:
        'The verdict with everything that led to it: the groups chosen, every rule that matched with its length, the winner and the tie-break.',
      inputSchema: { url, agent },
      outputSchema: z
        .object({ allowed: z.boolean(), line: z.number(), reason: z.string() })
        .passthrough(),
    },
    async ({ url, agent }) => answer({ ...(await check(url, agent, true)) }),
  );

  server.registerTool(
    'lint_robots_txt',
    {
      title: 'Lint a robots.txt',
      annotations: { title: 'Lint a robots.txt', ...READ_ONLY },
      description:
        "What Google reads, accepts with typos, ignores or never uses: a robots.txt given as text, or a site's (fetched).",
      inputSchema: {
        url: url.optional().describe('A URL of the site whose robots.txt is linted'),
        text: z.string().max(1_024_000).optional().describe('A robots.txt body'),
      },
      outputSchema: z
        .object({ robots: z.string(), errors: z.number(), warnings: z.number() })
        .passthrough(),
    },
    async ({ url, text }) => {
      if (text !== undefined) return answer({ robots: '(text)', ...(await bounds.lint(text)) });
      if (url === undefined) throw new Error('give url (a site) or text (a robots.txt body)');
      const state = await bounds.robotsFor(url);
      const { entry } = state;
      const used = usedEntry(entry);
      const body = Buffer.from(used.body ?? '', 'base64');
      const fetched = { robots: state.location.robotsUrl, status: entry.status };
      // A wall in the file's place is the finding: crawlers cannot read the file.
      if (entry.edge && entry.edgeRead) {
        const wall = { ...fetched, edge: entry.edge, reading: entry.edgeRead };
        if (used.outcome !== 'ok') {
          return answer({ ...wall, errors: 1, warnings: 0, infos: 0, diagnostics: [] });
        }
        return answer({ ...wall, ...(await bounds.lint(body)) });
      }
      return answer({ ...fetched, ...(await bounds.lint(body)) });
    },
  );

  server.registerTool(
    'ai_crawlers',
    {
      title: 'Which AI and search crawlers does this site let in?',
      annotations: { title: 'Which AI and search crawlers does this site let in?', ...READ_ONLY },
      description:
        "Each well-known crawler (repkit's list and ai.robots.txt's): may it fetch the URL's path, by its own group or the * group.",
      inputSchema: { url },
      outputSchema: z
        .object({ robotsUrl: z.string(), crawlers: z.array(z.record(z.unknown())) })
        .passthrough(),
    },
    async ({ url }) => {
      const state = await bounds.robotsFor(url);
      const crawlers = [];
      for (const known of KNOWN_AGENTS) {
        const verdict = await bounds.verdict(url, state, [known.name]);
        const {
          ignoresStar: _ignoresStar,
          group: _group,
          ...access
        } = crawlerAccess(known, state.robots, verdict);
        crawlers.push({
          agent: [known.name],
          owner: known.owner,
          purpose: known.purpose,
          ...access,
        });
      }
      const edge = state.entry.edge;
      return answer({
        robotsUrl: state.location.robotsUrl,
        ...(edge ? { edge, reading: state.entry.edgeRead ?? 'literal' } : {}),
        crawlers,
      });
    },
  );

  return server;
}
