import type { Command } from 'commander';
import type { Output } from '../output.ts';
import { isValidProductToken, productToken } from '../../core/index.ts';
import { KNOWN_AGENTS, type KnownAgent } from '../../core/agents-entry.ts';
import { describeFetch, loadRobots, notRobotsTxtNote, verdictFrom } from '../robots-source.ts';
import { fetchOptions, type EdgeOptions } from '../fetching.ts';
import { crawlerAccess } from '../../fetch/internal.ts';
import { CliError } from '../errors.ts';

export function registerAgents(program: Command, output: Output): void {
  fetchOptions(program.command('agents'))
    .description(
      "which well-known search and AI crawlers (repkit's list and ai.robots.txt's) may fetch / and which are blocked",
    )
    .argument('<file|url>', 'a robots.txt file, or a URL of the site (its robots.txt is fetched)')
    .option('--path <path>', 'the path to ask about', '/')
    .option('--json', 'one JSON object per crawler, per line')
    .option('--blocked', 'only the crawlers that may not fetch the path')
    .option('--allowed', 'only the crawlers that may')
    .option(
      '--purpose <purpose>',
      `only crawlers of these purposes, comma-separated or repeated: ${PURPOSES.join(', ')}`,
      collectPurposes,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ repkit agents robots.txt\n  $ repkit agents https://example.com --path /blog/\n  $ repkit agents robots.txt --purpose ai-training,ai-search --allowed\n\nThe list ends with a count of the crawlers shown, blocked and allowed, by purpose.\nExit status: 0 the list was printed, 2 usage or input error (a file that cannot be read, a URL that is not one).',
    )
    .action((source, options) => runAgents(source, options, output));
}

/** `repkit agents`: the command's work, given its arguments and options as parsed. */
export async function runAgents(
  source: string,
  options: {
    path: string;
    json?: boolean;
    blocked?: boolean;
    allowed?: boolean;
    purpose?: KnownAgent['purpose'][];
    userAgent: string;
    timeout: number;
  } & EdgeOptions,
  output: Output,
): Promise<void> {
  if (options.blocked && options.allowed) {
    throw new CliError('--blocked and --allowed together list nothing; give one of them');
  }
  const tally = new Map<string, { blocked: number; allowed: number }>();
  const loaded = await loadRobots(source, { ...options, profile: 'google' });
  const { color } = output;
  if (!options.json) {
    output.out(
      `${loaded.label}${loaded.fetched ? `  (${describeFetch(loaded.fetched)})` : ''}, path ${options.path}`,
    );
    // A file that is no robots.txt at all: why every crawler is allowed.
    const kind = loaded.robots.notRobotsTxt;
    if (kind) output.out(color.yellow(notRobotsTxtNote(loaded.label, kind)));
  }
  for (const agent of KNOWN_AGENTS) {
    if (options.purpose && !options.purpose.includes(agent.purpose)) continue;
    const verdict = verdictFrom(loaded, options.path, [agent.name]);
    const access = crawlerAccess(agent, loaded.robots, verdict);
    const notes = agentNotes(agent, access.ignoresStar);
    const record = {
      // A list of names, as every verdict says whom it is for (check, diff, the service).
      agent: [agent.name],
      owner: agent.owner,
      purpose: agent.purpose,
      allowed: access.allowed,
      line: access.line,
      reason: access.reason,
      group: access.group,
      source: agent.source,
      ...(isValidProductToken(agent.name) ? {} : { readsAs: productToken(agent.name) }),
      ...(agent.respectsRobotsTxt !== undefined
        ? { respectsRobotsTxt: agent.respectsRobotsTxt }
        : {}),
      ...(agent.ignoresGlobalGroup ? { ignoresGlobalGroup: true } : {}),
      ...(agent.userTriggered ? { userTriggered: true } : {}),
      ...(notes.length > 0 ? { notes } : {}),
    };
    if (options.blocked && record.allowed) continue;
    if (options.allowed && !record.allowed) continue;
    const count = tally.get(agent.purpose) ?? { blocked: 0, allowed: 0 };
    count[record.allowed ? 'allowed' : 'blocked']++;
    tally.set(agent.purpose, count);
    if (options.json) {
      output.out(JSON.stringify(record));
    } else {
      const state = record.allowed ? color.green('allowed') : color.red('blocked');
      const why = record.line
        ? `line ${record.line}`
        : access.ignoresStar
          ? 'no rule'
          : access.reason;
      const note = notes.length > 0 ? color.yellow(`  ${notes.join('; ')}`) : '';
      output.out(
        `${state}  ${agent.name.padEnd(24)} ${shortOwner(agent.owner).padEnd(OWNER_WIDTH)} ${agent.purpose.padEnd(13)} ${color.dim(`${why}, ${record.group === 'own' ? 'its own group' : record.group === '*' ? 'the * group' : 'no group'}`)}${note}`,
      );
    }
  }
  if (!options.json) output.out(summaryOf(tally));
}

const PURPOSES: readonly KnownAgent['purpose'][] = [
  'search',
  'ai-training',
  'ai-search',
  'ai-assistant',
  'ads',
  'archive',
  'social',
  'other',
];

function collectPurposes(
  value: string,
  previous: KnownAgent['purpose'][] | undefined,
): KnownAgent['purpose'][] {
  const given = value.split(',').map((p) => p.trim());
  for (const purpose of given) {
    if (!(PURPOSES as readonly string[]).includes(purpose)) {
      throw new CliError(`unknown purpose "${purpose}": use ${PURPOSES.join(', ')}`);
    }
  }
  return [...(previous ?? []), ...(given as KnownAgent['purpose'][])];
}

/** "180 crawlers: 12 blocked, 168 allowed (ai-training: 3 of 40 blocked; ...)". */
function summaryOf(tally: ReadonlyMap<string, { blocked: number; allowed: number }>): string {
  let blocked = 0;
  let allowed = 0;
  const parts: string[] = [];
  for (const [purpose, count] of tally) {
    blocked += count.blocked;
    allowed += count.allowed;
    parts.push(`${purpose}: ${count.blocked} of ${count.blocked + count.allowed} blocked`);
  }
  return `\n${blocked + allowed} crawler(s): ${blocked} blocked, ${allowed} allowed (${parts.join('; ')})`;
}

/** Width of the owner column. */
const OWNER_WIDTH = 24;

/**
 * An owner as the column shows it: whole if it fits, a URL as its host, else cut at the last
 * word that fits, with `…` (ai.robots.txt's owners are often a sentence).
 */
export function shortOwner(owner: string): string {
  if (owner.length <= OWNER_WIDTH) return owner;
  if (/^https?:\/\//.test(owner)) {
    const host = new URL(owner).hostname.replace(/^www\./, '');
    if (host.length <= OWNER_WIDTH) return host;
  }
  const room = owner.slice(0, OWNER_WIDTH);
  const space = room.lastIndexOf(' ');
  const cut = (space > 0 ? room.slice(0, space) : room.slice(0, OWNER_WIDTH - 1)).replace(
    /[\s,;:.-]+$/,
    '',
  );
  return `${cut}…`;
}

/** What a reader should know about a crawler's verdict beyond the rules. */
function agentNotes(agent: KnownAgent, ignoresStar: boolean): string[] {
  const notes: string[] = [];
  if (!isValidProductToken(agent.name)) {
    notes.push(
      `a User-agent: ${agent.name} line is read by Google as "${productToken(agent.name)}": it never names this crawler`,
    );
  }
  if (ignoresStar) notes.push('ignores the * group (a Google special-case crawler)');
  if (agent.userTriggered) notes.push('user-triggered: ignores robots.txt');
  else if (agent.respectsRobotsTxt === false)
    notes.push('does not obey robots.txt (ai.robots.txt)');
  return notes;
}
