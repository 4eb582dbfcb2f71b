import type { Command } from 'commander';
import type { Output } from '../output.ts';
import { isValidProductToken, productToken } from '../../core/index.ts';
import { KNOWN_AGENTS, type KnownAgent } from '../../core/agents-entry.ts';
import { describeFetch, loadRobots, verdictFrom } from '../robots-source.ts';
import { fetchOptions } from '../fetching.ts';

export function registerAgents(program: Command, output: Output): void {
  fetchOptions(program.command('agents'))
    .description(
      "which well-known search and AI crawlers (repkit's list and ai.robots.txt's) may fetch / and which are blocked",
    )
    .argument('<file|url>', 'a robots.txt file, or a URL of the site (its robots.txt is fetched)')
    .option('--path <path>', 'the path to ask about', '/')
    .option('--json', 'one JSON object per crawler, per line')
    .addHelpText(
      'after',
      '\nExamples:\n  $ repkit agents robots.txt\n  $ repkit agents https://example.com --path /blog/\n\nExit status: 0 the list was printed, 2 usage or input error (a file that cannot be read, a URL that is not one).',
    )
    .action(
      async (
        source: string,
        options: { path: string; json?: boolean; userAgent: string; timeout: number },
      ) => {
        const loaded = await loadRobots(source, {
          profile: 'google',
          userAgent: options.userAgent,
          timeout: options.timeout,
        });
        const { color } = output;
        if (!options.json) {
          output.out(
            `${loaded.label}${loaded.fetched ? `  (${describeFetch(loaded.fetched)})` : ''}, path ${options.path}`,
          );
        }
        for (const agent of KNOWN_AGENTS) {
          const verdict = verdictFrom(loaded, options.path, [agent.name], true);
          const group = verdict.explanation?.group;
          // Google's special-case crawlers never take the * group's rules.
          const ignoresStar = Boolean(agent.ignoresGlobalGroup) && group?.scope === 'global';
          const notes = agentNotes(agent, ignoresStar);
          const record = {
            agent: agent.name,
            owner: agent.owner,
            purpose: agent.purpose,
            allowed: ignoresStar ? true : verdict.allowed,
            line: ignoresStar ? 0 : verdict.line,
            group: ignoresStar
              ? 'none'
              : group
                ? group.scope === 'specific'
                  ? 'own'
                  : '*'
                : 'none',
            source: agent.source,
            ...(isValidProductToken(agent.name) ? {} : { readsAs: productToken(agent.name) }),
            ...(agent.respectsRobotsTxt !== undefined
              ? { respectsRobotsTxt: agent.respectsRobotsTxt }
              : {}),
            ...(agent.ignoresGlobalGroup ? { ignoresGlobalGroup: true } : {}),
            ...(agent.userTriggered ? { userTriggered: true } : {}),
            ...(notes.length > 0 ? { notes } : {}),
          };
          if (options.json) {
            output.out(JSON.stringify(record));
          } else {
            const state = record.allowed ? color.green('allowed') : color.red('blocked');
            const why = record.line
              ? `line ${record.line}`
              : ignoresStar
                ? 'no rule'
                : verdict.reason;
            const note = notes.length > 0 ? color.yellow(`  ${notes.join('; ')}`) : '';
            output.out(
              `${state}  ${agent.name.padEnd(24)} ${agent.owner.slice(0, 17).padEnd(17)} ${agent.purpose.padEnd(13)} ${color.dim(`${why}, ${record.group === 'own' ? 'its own group' : record.group === '*' ? 'the * group' : 'no group'}`)}${note}`,
            );
          }
        }
      },
    );
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
