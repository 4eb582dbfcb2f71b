import type { Command } from 'commander';
import { parseSpec } from '../spec.ts';
import { Option } from '../toolkit.ts';
import { diffMarkdown, sideText } from '../diff-markdown.ts';
import { CliError } from '../errors.ts';
import { MAX_TEXT_BYTES, readSmallText } from '../files.ts';
import type { Output } from '../output.ts';
import { fetchOptions } from '../fetching.ts';
import {
  collectAgents,
  describeFetch,
  held,
  isUrl,
  loadRobots,
  notRobotsTxtNote,
  parseProfile,
  readRobotsFile,
} from '../robots-source.ts';
import { RobotsComparison } from '../../fetch/internal.ts';
import type { ProfileName } from '../../core/index.ts';

/** One side's verdict in a change. */
type SideVerdict = ReturnType<RobotsComparison['changes']>[number]['before'];

interface DiffOptions {
  urls?: string;
  spec?: string;
  format: 'text' | 'json' | 'markdown';
  summary?: boolean;
  agent?: string[];
  profile: ProfileName;
  json?: boolean;
  userAgent: string;
  timeout: number;
}

export function registerDiff(program: Command, output: Output): void {
  fetchOptions(program.command('diff'))
    .description('which URLs change verdict between two versions of a robots.txt, per crawler')
    .argument('<old>', 'the current robots.txt: a file or a URL of the site')
    .argument('<new>', 'the proposed robots.txt: a file or a URL of the site')
    .option(
      '--urls <file>',
      "URLs or paths to compare, one per line (# comments allowed; - for stdin); default: paths taken from both files' rules",
    )
    .option('--spec <file>', "URLs to compare from a repkit test spec's allow and disallow lists")
    .option('--summary', 'changes counted by crawler and deciding rules, not listed by URL')
    .option(
      '-a, --agent <name>',
      'crawler to compare for; repeat for several (default: every crawler either file names, and *)',
      collectAgents,
    )
    .option('-p, --profile <name>', 'google | rfc9309 | legacy', parseProfile, 'google')
    .option('--json', 'one JSON object per change, per line')
    .addOption(
      new Option(
        '--format <format>',
        'text, json (as --json) or markdown (a pull request comment: changes by crawler and rule)',
      )
        .choices(['text', 'json', 'markdown'])
        .default('text'),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ repkit diff robots.txt robots.new.txt
  $ repkit diff robots.txt robots.new.txt --urls important-urls.txt
  $ repkit diff origin-robots.txt public/robots.txt --format markdown > comment.md
  $ grep -o 'https://[^ ]*' access.log | repkit diff https://example.com robots.new.txt --urls - --summary
  $ repkit diff https://example.com robots.new.txt --urls urls.txt --agent Googlebot --agent GPTBot

Without --urls, the paths compared are "/" and, for every rule of either file, its path and
one below it ("*" read as "x", a final "$" dropped): each changed rule meets a path it
matches. "*" stands for any crawler without a group of its own. Exit status: 0 no verdict
changes, 1 some change, 2 usage or input error.`,
    )
    .action((oldSource, newSource, options) => runDiff(oldSource, newSource, options, output));
}

/** `repkit diff`: the command's work, given its arguments and options as parsed. */
export async function runDiff(
  oldSource: string,
  newSource: string,
  options: DiffOptions,
  output: Output,
): Promise<void> {
  if (options.format === 'json') options.json = true;
  const listed = options.urls === undefined ? undefined : await readUrlList(options.urls);
  const fromSpec = options.spec === undefined ? undefined : await specUrls(options.spec);
  const given =
    listed || fromSpec ? [...new Set([...(listed ?? []), ...(fromSpec ?? [])])] : undefined;
  const [before, after] = await Promise.all([
    loadRobots(oldSource, options),
    loadRobots(newSource, options),
  ]);
  // A file that could not be fetched is no version of the rules: nothing to compare.
  for (const loaded of [before, after]) {
    const state = loaded.fetched;
    if (state && state.entry.outcome === 'error' && !state.entry.lastGood) {
      throw new CliError(`cannot compare: ${loaded.label} is ${describeFetch(state)}`);
    }
  }
  // A version that is no robots.txt at all (a page served in its place): said first, as
  // check says it (JSON: each side's notRobotsTxt).
  for (const loaded of options.json || options.format === 'markdown' ? [] : [before, after]) {
    const kind = loaded.robots.notRobotsTxt;
    if (kind) output.out(output.color.yellow(notRobotsTxtNote(loaded.label, kind)));
  }
  const comparison = new RobotsComparison(held(before), held(after), {
    ...(given ? { urls: given } : {}),
    ...(options.agent ? { agents: options.agent } : {}),
  });
  const { urls, agents } = comparison;
  const changes = comparison.changes();
  const compared = given
    ? `${urls.length} URL(s)`
    : `${urls.length} path(s) from the files' rules${comparison.cut ? ` (the first ${urls.length})` : ''}`;
  const total = `${changes.length} change(s) in ${compared} × ${agents.length} crawler(s): ${agents.join(', ')}`;
  if (options.format === 'markdown') {
    output.out(diffMarkdown(comparison.groups(changes), changes.length, compared, agents));
  } else if (options.summary) {
    printGroups(output, comparison.groups(changes), options.json === true);
    if (!options.json) output.out(total);
  } else {
    printChanges(output, changes, options.json === true);
    if (!options.json) output.out(total);
  }
  if (changes.length > 0) process.exitCode = 1;
}

type VerdictChange = ReturnType<RobotsComparison['changes']>[number];
type ChangeGroup = ReturnType<RobotsComparison['groups']>[number];

/** A side's deciding rule, in words. */
function ruleText(v: SideVerdict): string {
  return sideText(v, (rule) => `${rule.kind}: ${rule.value}`);
}

function arrowOf(output: Output, allowed: boolean): string {
  const { color } = output;
  return allowed ? color.green('disallowed → allowed') : color.red('allowed → disallowed');
}

/** `--summary`: one line per crawler and pair of deciding rules. */
function printGroups(output: Output, groups: readonly ChangeGroup[], json: boolean): void {
  for (const { agent, before: was, after: now, count, example } of groups) {
    if (json) {
      const record = { agent: [agent], count, before: was, after: now, example };
      output.out(JSON.stringify(record));
    } else {
      output.out(
        `${agent.padEnd(16)} ${String(count).padStart(6)} × ${arrowOf(output, now.allowed)}  ${output.color.dim(`(${ruleText(was)} → ${ruleText(now)}; e.g. ${example})`)}`,
      );
    }
  }
}

/** One line per URL and crawler whose verdict changes. */
function printChanges(output: Output, changes: readonly VerdictChange[], json: boolean): void {
  for (const { url, requestUrl, agent, before: was, after: now } of changes) {
    if (json) {
      output.out(
        JSON.stringify({
          url,
          ...(requestUrl ? { requestUrl } : {}),
          agent: [agent],
          before: was,
          after: now,
        }),
      );
    } else {
      output.out(
        `${agent.padEnd(16)} ${url}  ${arrowOf(output, now.allowed)}  ${output.color.dim(`(${ruleText(was)} → ${ruleText(now)})`)}`,
      );
    }
  }
}

/** The URLs of a list file, or of standard input (`-`), read as robots.txt files are (bounded). */
async function readUrlList(path: string): Promise<string[]> {
  const text = new TextDecoder().decode(await readRobotsFile(path));
  if (path === '-') path = 'standard input';
  const urls: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (!line.startsWith('/') && !isUrl(line)) {
      throw new CliError(`${path}:${i + 1}: not a URL or a path starting with /: "${line}"`);
    }
    urls.push(line);
  });
  if (urls.length === 0) throw new CliError(`${path} lists no URLs`);
  return urls;
}

/** The URLs (and paths) a `repkit test` spec expects something of, in its order. */
async function specUrls(file: string): Promise<string[]> {
  const text = readSmallText(file, MAX_TEXT_BYTES);
  const urls = parseSpec(file, text).urls.map((u) => u.url);
  if (urls.length === 0) throw new CliError(`${file} lists no URLs to compare`);
  return urls;
}
