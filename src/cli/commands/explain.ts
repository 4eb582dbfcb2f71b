import type { Command } from 'commander';
import type { Explanation, RuleMatch } from '../../core/index.ts';
import { CliError } from '../errors.ts';
import type { Output } from '../output.ts';
import {
  describeFetch,
  isUrl,
  loadRobots,
  notRobotsTxtNote,
  verdictFrom,
  checkTarget,
} from '../robots-source.ts';
import { capitalize, robotsOptions, validateUrl, type CheckOptions } from './check.ts';

export function registerExplain(program: Command, output: Output): void {
  robotsOptions(
    program
      .command('explain')
      .description('show how the verdict for one URL comes about: group, matching rules, winner')
      .argument('<url>', 'the URL (a path starting with / when --robots is a file)'),
    'robots.txt to read: a file, or a URL of the site (default: the URL’s own, fetched)',
  )
    .addHelpText(
      'after',
      `
Examples:
  $ repkit explain --robots robots.txt --agent Googlebot https://example.com/drafts/
  $ repkit explain --agent ExampleBot https://example.com/private/page   (fetches robots.txt)

Exit status: 0 allowed, 1 disallowed, 2 usage or input error.`,
    )
    .action((given, options) => runExplain(given, options, output));
}

/** `repkit explain`: the command's work, given its arguments and options as parsed. */
export async function runExplain(
  given: string,
  options: CheckOptions,
  output: Output,
): Promise<void> {
  const url = checkTarget(given, output);
  const source = options.robots ?? url;
  if (!options.robots && !isUrl(url))
    throw new CliError(`"${url}" is a path: give --robots <file>, or a full URL`);
  validateUrl(url);
  const loaded = await loadRobots(source, options);
  const verdict = verdictFrom(loaded, url, options.agent, true);
  const fetched = loaded.fetched;
  if (options.json) {
    output.out(
      JSON.stringify({
        url,
        robots: loaded.label,
        ...(fetched
          ? {
              fetch: {
                outcome: fetched.entry.outcome,
                status: fetched.entry.status,
                source: fetched.source,
                chain: fetched.entry.chain,
                fetchedAt: fetched.entry.fetchedAt,
                expiresAt: fetched.entry.expiresAt,
                ...(fetched.entry.error ? { error: fetched.entry.error } : {}),
                ...(fetched.entry.errorCode ? { errorCode: fetched.entry.errorCode } : {}),
              },
            }
          : {}),
        ...verdict,
      }),
    );
  } else {
    printExplanation(
      output,
      url,
      verdict.agent,
      loaded.label,
      fetched ? describeFetch(fetched) : undefined,
      verdict,
    );
  }
  if (!verdict.allowed) process.exitCode = 1;
}

function printExplanation(
  output: Output,
  url: string,
  agent: string[],
  label: string,
  fetchState: string | undefined,
  verdict: ReturnType<typeof verdictFrom>,
): void {
  const { color } = output;
  const row = (name: string, value: string) =>
    output.out(`${color.bold(name.padEnd(10))} ${value}`);
  const ruleText = (m: RuleMatch) =>
    `line ${String(m.line).padEnd(4)} ${m.kind.padEnd(8)} ${m.value}${m.aliasOf !== undefined ? ` (matched as ${m.pattern}: index.html also allows the directory)` : ''}  length ${m.length}`;
  if (verdict.notRobotsTxt) {
    // What the file is comes first: it explains the rest.
    output.out(color.yellow(notRobotsTxtNote(label, verdict.notRobotsTxt)));
  }
  row('url', url);
  if (verdict.requestUrl) row('requested', `${verdict.requestUrl}  (as an HTTP client sends it)`);
  row('agent', agent.join(', '));
  row('robots', label + (fetchState ? `  (${fetchState})` : ''));
  const e = verdict.explanation;
  if (!e) {
    row(
      'verdict',
      `${verdict.allowed ? color.green('allowed') : color.red('disallowed')}: ${verdict.reason}`,
    );
    return;
  }
  row('path', e.path);
  row('group', groupText(e.group, agent));
  if (e.matches.length === 0) row('matches', color.dim('no rule matches this path'));
  e.matches.forEach((m, i) => row(i === 0 ? 'matches' : '', ruleText(m)));
  if (verdict.reason === 'ignores-global-group') {
    // The * group's rules above are what a crawler that obeys it would get; this one does not.
    row(
      'verdict',
      `${color.green('allowed')}: ignores-global-group (${agent[0]} is a Google special-case crawler: it obeys only groups that name it, never the * group)`,
    );
    return;
  }
  if (e.rule && e.reason !== 'no-matching-rule') {
    row(
      'winner',
      `${ruleText(e.rule)}${e.tieBreak ? '  (tie with a disallow of the same length: allow wins)' : ''}`,
    );
  }
  row(
    'verdict',
    `${e.allowed ? color.green('allowed') : color.red('disallowed')}: ${e.reason}${e.line ? ` (line ${e.line}: ${capitalize(e.rule!.kind)}: ${e.rule!.value})` : ''}`,
  );
  const ignored = ignoredNote(e.ignoredGlobalRules);
  if (ignored) row('note', color.yellow(ignored));
  if (verdict.lineCut) {
    row(
      'note',
      color.yellow(
        `line ${e.line} is cut by the 500 KiB limit: Google reads only "${e.rule!.value}" of its value, so it matches more than written`,
      ),
    );
  }
}

/** Which groups the crawler's rules came from, in words. */
function groupText(group: Explanation['group'], agent: readonly string[]): string {
  if (!group) {
    return `none: no group names ${agent.join(' or ')} and there is no * group, so nothing is restricted`;
  }
  const how =
    group.scope === 'specific'
      ? `${group.lines.length > 1 ? 'groups' : 'group'} naming ${agent.join(' or ')}${group.lines.length > 1 ? ', merged' : ''}`
      : `no group names ${agent.join(' or ')}, so the * group${group.lines.length > 1 ? 's (merged)' : ''}`;
  return `${how}: line ${group.lines.join(', ')} (${group.agents.join(', ')})`;
}

/** The * group's rules that match too, but do not apply to a crawler with its own group. */
function ignoredNote(rules: Explanation['ignoredGlobalRules']): string | undefined {
  if (!rules || rules.length === 0) return undefined;
  const lines = rules.map((m) => `line ${m.line} (${capitalize(m.kind)}: ${m.value})`);
  return `the * group's ${lines.join(', ')} ${lines.length > 1 ? 'match this path too, but do' : 'matches this path too, but does'} not apply: a crawler with a group of its own ignores the * group`;
}
