import type { Command } from 'commander';
import { crawlDecision, type CrawlDecision, type HtmlInput } from '../../meta/index.ts';
import type { PolicyField } from '../../meta/internal.ts';
import { CliError } from '../errors.ts';
import { openToRead } from '../files.ts';
import { fetchClient, fetchOptions } from '../fetching.ts';
import type { Output } from '../output.ts';
import { collectAgents, isUrl } from '../robots-source.ts';

interface MetaOptions {
  agent: string[];
  header?: string[];
  json?: boolean;
  userAgent: string;
  timeout: number;
}

export function registerMeta(program: Command, output: Output): void {
  fetchOptions(program.command('meta'), true)
    .description(
      "a page's own rules (robots meta tags, X-Robots-Tag) for a crawler, with robots.txt: fetch, index, follow",
    )
    .argument('<url|file>', 'a page URL (robots.txt is checked first), or an HTML file')
    .requiredOption(
      '-a, --agent <name>',
      'crawler name; repeat or comma-separate for several',
      collectAgents,
    )
    .option(
      '-H, --header <header>',
      'with a file: a response header, e.g. "X-Robots-Tag: noindex" (repeatable)',
      (v: string, p: string[] = []) => [...p, v],
    )
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      `
Examples:
  $ repkit meta https://example.com/article --agent Googlebot
  $ repkit meta page.html --agent Googlebot --header "X-Robots-Tag: googlebot: nofollow"

Only the head of the page is read. Exit status: 0 the page may be fetched and indexed,
1 it may not, 2 usage or input error.`,
    )
    .action((source, options) => runMeta(source, options, output));
}

/** `repkit meta`: the command's work, given its arguments and options as parsed. */
export async function runMeta(source: string, options: MetaOptions, output: Output): Promise<void> {
  const decision = isUrl(source) ? await fromUrl(source, options) : await fromFile(source, options);
  if (options.json) output.out(JSON.stringify({ source, agent: options.agent, ...decision }));
  else print(output, source, decision);
  if (!decision.fetch || !decision.index) process.exitCode = 1;
}

async function fromFile(path: string, options: MetaOptions): Promise<CrawlDecision> {
  const headers: Record<string, string[]> = {};
  for (const header of options.header ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new CliError(`--header must look like "Name: value", got "${header}"`);
    const name = header.slice(0, colon).trim().toLowerCase();
    (headers[name] ??= []).push(header.slice(colon + 1).trim());
  }
  // Opened only once the options are known good; the stream closes the file when done.
  const html = (await openToRead(path)).createReadStream() as unknown as HtmlInput;
  return crawlDecision(
    { robots: { allowed: true, reason: 'a local file' }, html, headers },
    options.agent,
  );
}

async function fromUrl(url: string, options: MetaOptions): Promise<CrawlDecision> {
  const client = fetchClient({ ...options, profile: 'google' });
  try {
    let robots;
    try {
      robots = await client.check(url);
    } catch (error) {
      throw new CliError((error as Error).message);
    }
    if (!robots.allowed) return await crawlDecision({ robots }, options.agent);
    // The client's page fetch: each redirect target is checked against its own robots.txt
    // before it is requested.
    const response = await client.fetchPage(url, { agent: options.agent });
    if (response.refusedHop) {
      return {
        fetch: false,
        index: false,
        follow: false,
        reasons: [`${url} redirects; ${response.refusedHop.reason}`],
        robots,
      };
    }
    if (response.status === 0) throw new CliError(`cannot fetch ${url}: ${response.error}`);
    const decision = await crawlDecision(
      { robots, headers: response.headers, ...(response.body ? { html: response.body } : {}) },
      options.agent,
    );
    if (response.status >= 200 && response.status < 300) return decision;
    // An error page is not indexed, whatever its tags say.
    return {
      ...decision,
      index: false,
      follow: false,
      reasons: [
        `the page answered HTTP ${response.status}: search engines do not index error pages, nor follow their links`,
        ...decision.reasons,
      ],
    };
  } finally {
    await client.close();
  }
}

const SHOWN: PolicyField[] = [
  'index',
  'follow',
  'archive',
  'snippet',
  'maxSnippet',
  'maxImagePreview',
  'maxVideoPreview',
  'translate',
  'imageIndex',
  'unavailableAfter',
  'indexIfEmbedded',
  'ai',
  'imageAi',
];

function print(output: Output, source: string, decision: CrawlDecision): void {
  const { color } = output;
  const yes = (ok: boolean) => (ok ? color.green('yes') : color.red('no'));
  const row = (name: string, value: string) =>
    output.out(`${color.bold(name.padEnd(16))} ${value}`);
  row('page', source);
  row(
    'may fetch',
    yes(decision.fetch) +
      (decision.robots?.line ? color.dim(`  (robots.txt line ${decision.robots.line})`) : ''),
  );
  row(
    'may index',
    decision.fetch
      ? yes(decision.index)
      : `${color.red('no')} ${color.dim('(not its content; the bare URL may still be indexed from links)')}`,
  );
  row('may follow links', yes(decision.follow));
  for (const reason of decision.reasons) row('', color.dim(reason));
  const page = decision.page;
  if (!page) return;
  output.out('');
  for (const field of SHOWN) {
    const value = page.policy[field];
    const by = page.decidedBy[field];
    const shown =
      value instanceof Date ? value.toISOString() : value === undefined ? 'none' : String(value);
    const where = by
      ? color.dim(
          `  ← ${by.kind === 'meta' ? `<meta name="${by.agent === '*' ? 'robots' : by.agent}"> line ${by.line}` : `${by.field ?? 'X-Robots-Tag'}${by.agent === '*' ? '' : ` (${by.agent})`}`}: ${by.text}`,
        )
      : '';
    row(field, shown + where);
  }
  for (const problem of page.problems) output.out(color.yellow(`problem: ${problem.message}`));
  if (page.html)
    output.out(
      color.dim(
        `read ${page.html.charsRead} characters of HTML (${page.html.stoppedAt === 'head-end' ? 'stopped at the end of the head' : page.html.stoppedAt === 'limit' ? 'stopped at the read limit, head still open' : 'the whole input'})`,
      ),
    );
}
