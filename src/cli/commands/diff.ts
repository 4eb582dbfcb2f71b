import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { CliError } from '../errors.ts';
import type { Output } from '../output.ts';
import { fetchOptions } from '../fetching.ts';
import {
  collectAgents,
  describeFetch,
  diffSide,
  isUrl,
  loadRobots,
  parseProfile,
} from '../robots-source.ts';
import { diffVerdicts, type SideVerdict } from '../../fetch/internal.ts';
import type { ProfileName } from '../../core/index.ts';

interface DiffOptions {
  urls: string;
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
    .requiredOption('--urls <file>', 'URLs or paths to compare, one per line (# comments allowed)')
    .option(
      '-a, --agent <name>',
      'crawler to compare for; repeat for several (default: every crawler either file names, and *)',
      collectAgents,
    )
    .option('-p, --profile <name>', 'google | rfc9309 | legacy', parseProfile, 'google')
    .option('--json', 'one JSON object per change, per line')
    .addHelpText(
      'after',
      `
Examples:
  $ repkit diff robots.txt robots.new.txt --urls important-urls.txt
  $ repkit diff https://example.com robots.new.txt --urls urls.txt --agent Googlebot --agent GPTBot

"*" stands for any crawler without a group of its own. Exit status: 0 no verdict changes,
1 some change, 2 usage or input error.`,
    )
    .action(async (oldSource: string, newSource: string, options: DiffOptions) => {
      const urls = await readUrlList(options.urls);
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
      const { changes, agents } = diffVerdicts(
        diffSide(before),
        diffSide(after),
        urls,
        options.agent,
      );
      const rule = (v: SideVerdict) =>
        v.rule ? `line ${v.line}: ${v.rule.kind}: ${v.rule.value}` : v.reason;
      for (const { url, requestUrl, agent, before: was, after: now } of changes) {
        if (options.json) {
          output.out(
            JSON.stringify({
              url,
              ...(requestUrl ? { requestUrl } : {}),
              agent,
              before: { allowed: was.allowed, line: was.line },
              after: { allowed: now.allowed, line: now.line },
            }),
          );
        } else {
          const { color } = output;
          const arrow = now.allowed
            ? color.green('disallowed → allowed')
            : color.red('allowed → disallowed');
          output.out(
            `${agent.padEnd(16)} ${url}  ${arrow}  ${color.dim(`(${rule(was)} → ${rule(now)})`)}`,
          );
        }
      }
      if (!options.json) {
        output.out(
          `${changes.length} change(s) in ${urls.length} URL(s) × ${agents.length} crawler(s): ${agents.join(', ')}`,
        );
      }
      if (changes.length > 0) process.exitCode = 1;
    });
}

async function readUrlList(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
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
