import type { Command } from 'commander';
import type { UsageAnswer } from '../../fetch/index.ts';
import { describeSource } from '../../core/internal.ts';
import { fetchClient, fetchOptions } from '../fetching.ts';
import type { Output } from '../output.ts';
import { collectAgents, siteUrlOf } from '../robots-source.ts';
import { agentFromUserAgent } from './check.ts';

interface UsageOptions {
  agent: string[];
  json?: boolean;
  llms?: boolean;
  userAgent: string;
  timeout: number;
}

export function registerUsage(program: Command, output: Output): void {
  fetchOptions(program.command('usage'), true)
    .description(
      'may a crawler fetch a URL, index it, use it to train AI, use it for search: one answer, with where each part comes from',
    )
    .argument('<url>', 'a page URL (robots.txt is fetched, then the page if allowed)')
    .option(
      '-a, --agent <name>',
      "crawler name; repeat or comma-separate (default: the --user-agent header's product token)",
      collectAgents,
    )
    .hook('preAction', agentFromUserAgent)
    .option('--json', 'machine-readable output')
    .option(
      '--llms',
      "also fetch the site's llms.txt (its robots.txt LLMs: line, else /llms.txt), where robots.txt allows it, and report it",
    )
    .addHelpText(
      'after',
      `
Reads robots.txt (Allow/Disallow, Content-Usage, Content-Signal) and, when fetching is
allowed, the site's /.well-known/tdmrep.json and the page's headers and head (noindex,
noai, Content-Usage, Robots-Tag, X-Robots-Tag, tdm-reservation, tdm-policy).
Preferences combine as the AIPREF vocabulary says: any "no" wins, then any "yes".
License: lines (RSL 1.0) are named; an llms.txt (--llms) is reported, never read as a
permission.
Exit status: 0 the page may be fetched, 1 it may not, 2 usage or input error.

Example:
  $ repkit usage https://example.com/article --agent GPTBot`,
    )
    .action((given, options) => runUsage(given, options, output));
}

/** `repkit usage`: the command's work, given its arguments and options as parsed. */
export async function runUsage(
  given: string,
  options: UsageOptions,
  output: Output,
): Promise<void> {
  const url = siteUrlOf(given, output);
  const client = fetchClient({ ...options, profile: 'google' });
  let answer: UsageAnswer;
  try {
    answer = await client.usage(url, { agent: options.agent, llms: options.llms === true });
  } finally {
    await client.close();
  }
  if (options.json) {
    output.out(JSON.stringify(answer));
  } else {
    printUsage(output, answer);
  }
  if (!answer.fetch.may) process.exitCode = 1;
}

function printUsage(output: Output, answer: UsageAnswer): void {
  const { color } = output;
  const yes = (ok: boolean) => (ok ? color.green('yes') : color.red('no'));
  const row = (name: string, value: string) =>
    output.out(`${color.bold(name.padEnd(10))} ${value}`);
  row('url', answer.url);
  row('agent', answer.agent.join(', '));
  row('fetch', `${yes(answer.fetch.may)}  ${color.dim(answer.fetch.why)}`);
  row('index', `${yes(answer.index.may)}  ${color.dim(answer.index.why)}`);
  for (const label of ['train-ai', 'search'] as const) {
    const { preference, statements } = answer[label];
    const shown =
      preference === 'allowed'
        ? color.green('allowed')
        : preference === 'disallowed'
          ? color.red('disallowed')
          : 'no preference stated';
    const why =
      statements.map((s) => `${describeSource(s.source)} (${s.preference})`).join('; ') ||
      (answer.fetch.may ? 'nothing says' : 'the URL may not be fetched');
    row(label, `${shown}  ${color.dim(why)}`);
  }
  const { tdm } = answer;
  const reserved =
    tdm.reservation === 'reserved'
      ? color.red('reserved')
      : tdm.reservation === 'not-reserved'
        ? color.green('not reserved')
        : 'no reservation stated';
  const tdmWhy = tdm.decidedBy
    ? describeSource(tdm.decidedBy)
    : answer.fetch.may
      ? 'no tdmrep.json rule, header or meta tag'
      : 'the URL may not be fetched';
  row('tdm', `${reserved}  ${color.dim(tdmWhy + (tdm.policy ? `; policy ${tdm.policy}` : ''))}`);
  for (const license of answer.robotsTxt.licenses ?? []) {
    row('license', `${license.url}  ${color.dim(`(robots.txt line ${license.line})`)}`);
  }
  const llms = answer.llmsTxt;
  if (llms) row('llms.txt', `${llms.url}  ${color.dim(llmsTxtInWords(llms))}`);
  // A redirect not followed, of the tdmrep.json or of the page: named, with why.
  for (const [what, hop] of [
    ['tdmrep.json', tdm.file?.refusedHop],
    ['page', answer.page?.refusedHop],
  ] as const) {
    if (hop) row('not sent', `${hop.url}  ${color.dim(`(${what} redirect: ${hop.reason})`)}`);
  }
}

/** What asking for the llms.txt came to, in words. */
function llmsTxtInWords(llms: NonNullable<UsageAnswer['llmsTxt']>): string {
  if (llms.kind === 'not-fetched') return `not fetched: ${llms.why}`;
  const parts = [
    llms.status === 0 ? (llms.error ?? 'no answer') : `status ${llms.status}`,
    ...(llms.bytes !== undefined ? [`${llms.bytes}${llms.truncated ? '+' : ''} bytes`] : []),
    ...(llms.title ? [`"${llms.title}"`] : []),
    ...(llms.line ? [`named on robots.txt line ${llms.line}`] : []),
  ];
  return parts.join(', ');
}
