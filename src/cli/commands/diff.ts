import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { CliError } from '../errors.ts';
import type { Output } from '../output.ts';
import { fetchOptions } from '../fetching.ts';
import {
  collectAgents,
  describeFetch,
  isUrl,
  loadRobots,
  parseProfile,
  verdictFrom,
  type LoadedRobots,
} from '../robots-source.ts';
import { isGlobalAgent } from '../../core/internal.ts';
import { productToken, type ProfileName } from '../../core/index.ts';

/** The name checked for "any crawler without a group of its own": matches no product token. */
const ANY_OTHER = '*';

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
      const agents = options.agent ?? namedAgents(before, after);
      let changes = 0;
      for (const agent of agents) {
        const names = agent === ANY_OTHER ? [] : [agent];
        for (const url of urls) {
          const was = verdictFrom(before, url, names);
          const now = verdictFrom(after, url, names);
          if (was.allowed === now.allowed) continue;
          changes++;
          const rule = (v: typeof was) =>
            v.rule ? `line ${v.line}: ${v.rule.kind}: ${v.rule.value}` : v.reason;
          if (options.json) {
            output.out(
              JSON.stringify({
                url,
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
      }
      if (!options.json) {
        output.out(
          `${changes} change(s) in ${urls.length} URL(s) × ${agents.length} crawler(s): ${agents.join(', ')}`,
        );
      }
      if (changes > 0) process.exitCode = 1;
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

/** Every crawler either file has a group for (its product token as written), then "*". */
function namedAgents(...files: LoadedRobots[]): string[] {
  const names = new Map<string, string>();
  for (const file of files) {
    for (const group of file.robots.groups) {
      for (const value of group.agents) {
        const token = isGlobalAgent(value) ? '' : productToken(value);
        if (token !== '' && !names.has(token.toLowerCase())) names.set(token.toLowerCase(), token);
      }
    }
  }
  return [...names.values(), ANY_OTHER];
}
