/**
 * The MCP tools' work, one function each: what a tool answers for its arguments, through
 * the client and the bounds (see `McpBounds`). `server.ts` registers them with their
 * descriptions and schemas; tests call them directly.
 */
import { lint, type LintReport } from '../core/index.ts';
import { KNOWN_AGENTS } from '../core/agents-entry.ts';
import { usedEntry } from '../cache/internal.ts';
import type { CheckResult, RobotsClient, RobotsState, UsageAnswer } from '../fetch/index.ts';
import { clientSeam, crawlerAccess } from '../fetch/internal.ts';

/**
 * What a tool's work goes through: the robots.txt state of a URL (over HTTP, from the asking
 * client's budget of new origins), a verdict and a body's lint (over HTTP, where the service
 * makes its own: a large file's checks and every lint on its workers). Over stdio the one
 * user is the operator: straight through the client.
 */
export interface McpBounds {
  robotsFor(url: string): Promise<RobotsState>;
  /** The verdict for `url` with its state, as `RobotsClient.check` makes it. */
  verdict(
    url: string,
    state: RobotsState,
    agent: string | string[] | undefined,
    explain?: boolean,
  ): CheckResult | Promise<CheckResult>;
  lint(body: string | Uint8Array): Promise<LintReport>;
}

/** What the tools answer through: the client, and the bounds of the surface they serve on. */
export interface McpTools {
  client: RobotsClient;
  bounds: McpBounds;
}

/** Over stdio: straight through the client. */
export function clientBounds(client: RobotsClient): McpBounds {
  return {
    robotsFor: (url) => client.robotsFor(url),
    verdict: (url, state, agent, explain = false) => {
      const seam = clientSeam(client);
      const { agents, notes } = seam.names(agent);
      return seam.verdict(url, state, { agents, agentNotes: notes, explain });
    },
    lint: async (body) => lint(body),
  };
}

/** A URL and the crawler asking, as the tools take them. */
export interface UrlArgs {
  url: string;
  agent?: string | string[] | undefined;
}

/** `check_url` (and `explain`, with `explain`): the verdict for the URL, through the bounds. */
export async function checkUrl(
  { bounds }: McpTools,
  { url, agent }: UrlArgs,
  explain = false,
): Promise<CheckResult> {
  return bounds.verdict(url, await bounds.robotsFor(url), agent, explain);
}

/** `usage`: the combined answer, its robots.txt read through the bounds first. */
export async function usageOf(
  { client, bounds }: McpTools,
  { url, agent, llms }: UrlArgs & { llms?: boolean | undefined },
): Promise<UsageAnswer> {
  // Its robots.txt first, through the bounds; the rest of the answer reads it cached.
  await bounds.robotsFor(url);
  return client.usage(url, { ...(agent ? { agent } : {}), ...(llms ? { llms: true } : {}) });
}

/** `lint_robots_txt`: a body given, or a site's robots.txt as fetched. */
export async function lintRobotsTxt(
  { bounds }: McpTools,
  { url, text }: { url?: string | undefined; text?: string | undefined },
): Promise<Record<string, unknown>> {
  if (text !== undefined) return { robots: '(text)', ...(await bounds.lint(text)) };
  if (url === undefined) throw new Error('give url (a site) or text (a robots.txt body)');
  const state = await bounds.robotsFor(url);
  const { entry } = state;
  const used = usedEntry(entry);
  const body = Buffer.from(used.body ?? '', 'base64');
  const fetched = { robots: state.location.robotsUrl, status: entry.status };
  // A wall in the file's place is the finding: crawlers cannot read the file.
  if (entry.edge && entry.edgeRead) {
    const wall = { ...fetched, edge: entry.edge, reading: entry.edgeRead };
    if (used.outcome !== 'ok')
      return { ...wall, errors: 1, warnings: 0, infos: 0, diagnostics: [] };
    return { ...wall, ...(await bounds.lint(body)) };
  }
  return { ...fetched, ...(await bounds.lint(body)) };
}

/** `ai_crawlers`: each well-known crawler's access to the URL's path. */
export async function aiCrawlers({ bounds }: McpTools, { url }: { url: string }) {
  const state = await bounds.robotsFor(url);
  const crawlers = [];
  for (const known of KNOWN_AGENTS) {
    const verdict = await bounds.verdict(url, state, [known.name]);
    const {
      ignoresStar: _ignoresStar,
      group: _group,
      ...access
    } = crawlerAccess(known, state.robots, verdict);
    crawlers.push({ agent: [known.name], owner: known.owner, purpose: known.purpose, ...access });
  }
  const edge = state.entry.edge;
  return {
    robotsUrl: state.location.robotsUrl,
    ...(edge ? { edge, reading: state.entry.edgeRead ?? 'literal' } : {}),
    crawlers,
  };
}
