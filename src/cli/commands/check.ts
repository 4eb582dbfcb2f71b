import type { Command } from 'commander';
import type { Explanation, ProfileName } from '../../core/index.ts';
import { CliError } from '../errors.ts';
import type { Output } from '../output.ts';
import { collectAgents, loadRobotsFile, parseProfile } from '../robots-source.ts';

export interface CheckOptions {
  agent: string[];
  robots?: string;
  profile: ProfileName;
  json?: boolean;
}

/** One verdict as `--json` prints it (one object per line, in input order). */
export interface CheckRecord {
  url: string;
  allowed: boolean;
  line: number;
  rule?: string;
  reason: Explanation['reason'];
  agent: string[];
}

export function toRecord(url: string, agent: string[], verdict: Explanation): CheckRecord {
  return {
    url,
    allowed: verdict.allowed,
    line: verdict.line,
    ...(verdict.rule ? { rule: `${capitalize(verdict.rule.kind)}: ${verdict.rule.value}` } : {}),
    reason: verdict.reason,
    agent,
  };
}

function capitalize(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

/** A URL to check: absolute http(s)/ftp, or a path starting with "/". */
export function validateUrl(url: string): string {
  if (url.startsWith('/')) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`not a URL: "${url}" (give an absolute URL or a path starting with /)`);
  }
  if (!['http:', 'https:', 'ftp:'].includes(parsed.protocol)) {
    throw new CliError(`unsupported URL scheme in "${url}": use http, https or ftp`);
  }
  return url;
}

export function formatVerdict(output: Output, record: CheckRecord): string {
  const { color } = output;
  const verdict = record.allowed ? color.green('allowed   ') : color.red('disallowed');
  const why = record.rule ? `line ${record.line}: ${record.rule}` : color.dim(record.reason);
  return `${verdict}  ${record.url}  ${why}`;
}

export function registerCheck(program: Command, output: Output): void {
  program
    .command('check')
    .description('say whether a crawler may fetch each URL, and which robots.txt line decides')
    .argument(
      '<url...>',
      'URLs to check (absolute, or paths starting with / when --robots is a file)',
    )
    .requiredOption(
      '-a, --agent <name>',
      'crawler name; repeat or comma-separate for several',
      collectAgents,
    )
    .option('-r, --robots <file>', 'robots.txt file to check against')
    .option('-p, --profile <name>', 'google | rfc9309 | legacy', parseProfile, 'google')
    .option('--json', 'one JSON object per URL, per line')
    .addHelpText(
      'after',
      `
Examples:
  $ repkit check --robots robots.txt --agent Googlebot https://example.com/private/x /search?q=a
  $ repkit check --robots robots.txt --agent Googlebot --json /a /b

Exit status: 0 all allowed, 1 at least one URL disallowed, 2 usage or input error.`,
    )
    .action(async (urls: string[], options: CheckOptions) => {
      if (!options.robots) {
        throw new CliError(
          '--robots <file> is required (fetching robots.txt by URL is not available yet)',
        );
      }
      const checked = urls.map(validateUrl);
      const robots = await loadRobotsFile(options.robots, options.profile);
      let disallowed = false;
      for (const url of checked) {
        const record = toRecord(url, options.agent, robots.explain(url, options.agent));
        disallowed ||= !record.allowed;
        output.out(options.json ? JSON.stringify(record) : formatVerdict(output, record));
      }
      if (disallowed) process.exitCode = 1;
    });
}
