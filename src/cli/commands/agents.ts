import type { Command } from 'commander';
import type { Output } from '../output.ts';
import { KNOWN_AGENTS } from '../../core/index.ts';
import { describeFetch, loadRobots, verdictFrom } from '../robots-source.ts';
import { fetchOptions } from '../fetching.ts';

export function registerAgents(program: Command, output: Output): void {
  fetchOptions(program.command('agents'))
    .description('which well-known search and AI crawlers may fetch / and which are blocked')
    .argument('<file|url>', 'a robots.txt file, or a URL of the site (its robots.txt is fetched)')
    .option('--path <path>', 'the path to ask about', '/')
    .option('--json', 'one JSON object per crawler, per line')
    .addHelpText(
      'after',
      '\nExamples:\n  $ repkit agents robots.txt\n  $ repkit agents https://example.com --path /blog/',
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
          const verdict = verdictFrom(loaded, options.path, [agent.name]);
          const group = verdict.explanation?.group;
          const record = {
            agent: agent.name,
            owner: agent.owner,
            purpose: agent.purpose,
            allowed: verdict.allowed,
            line: verdict.line,
            group: group ? (group.scope === 'specific' ? 'own' : '*') : 'none',
          };
          if (options.json) {
            output.out(JSON.stringify(record));
          } else {
            const state = record.allowed ? color.green('allowed') : color.red('blocked');
            const why = verdict.line ? `line ${verdict.line}` : verdict.reason;
            output.out(
              `${state}  ${agent.name.padEnd(20)} ${agent.owner.padEnd(17)} ${agent.purpose.padEnd(13)} ${color.dim(`${why}, ${record.group === 'own' ? 'its own group' : record.group === '*' ? 'the * group' : 'no group'}`)}`,
            );
          }
        }
      },
    );
}
