import type { Command } from 'commander';
import type { UsagePreference } from '../../core/index.ts';
import { pagePolicy, type PagePolicyResult } from '../../meta/index.ts';
import { CliError } from '../errors.ts';
import { fetchClient, fetchOptions } from '../fetching.ts';
import type { Output } from '../output.ts';
import { collectAgents, isUrl } from '../robots-source.ts';

interface UsageOptions {
  agent: string[];
  json?: boolean;
  userAgent: string;
  timeout: number;
}

/** One statement about a usage, and where it was made. */
interface Said {
  preference: UsagePreference;
  source: string;
}

/** A usage category's combined answer (any no wins, then any yes), with every statement. */
interface UsageAnswer {
  preference: UsagePreference;
  statements: Said[];
}

export function registerUsage(program: Command, output: Output): void {
  fetchOptions(program.command('usage'))
    .description(
      'may a crawler fetch a URL, index it, use it to train AI, use it for search: one answer, with where each part comes from',
    )
    .argument('<url>', 'a page URL (robots.txt is fetched, then the page if allowed)')
    .requiredOption('-a, --agent <name>', 'crawler name; repeat or comma-separate', collectAgents)
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      `
Reads robots.txt (Allow/Disallow, Content-Usage, Content-Signal) and, when fetching is
allowed, the page's headers and head (noindex, noai, Content-Usage, Robots-Tag, X-Robots-Tag).
Preferences combine as the AIPREF vocabulary says: any "no" wins, then any "yes".
Exit status: 0 the page may be fetched, 1 it may not, 2 usage or input error.

Example:
  $ repkit usage https://example.com/article --agent GPTBot`,
    )
    .action(async (url: string, options: UsageOptions) => {
      if (!isUrl(url)) throw new CliError(`not a URL: "${url}"`);
      const client = fetchClient({ ...options, profile: 'google' });
      let answer;
      try {
        const state = await client.robotsFor(url);
        const verdict = client.verdict(url, state, options.agent);
        const robots = state.robots;
        const trainAi: Said[] = [];
        const search: Said[] = [];
        const usage = robots?.contentUsage(url, options.agent);
        for (const [label, list] of [
          ['train-ai', trainAi],
          ['search', search],
        ] as const) {
          const rule = usage?.decidedBy[label];
          if (rule) {
            list.push({
              preference: usage!.preferences[label],
              source: `robots.txt line ${rule.line}: Content-Usage: ${rule.path ? `${rule.path} ` : ''}${rule.statement}`,
            });
          }
        }
        const signals = robots?.contentSignals(options.agent);
        for (const [name, list] of [
          ['ai-train', trainAi],
          ['search', search],
        ] as const) {
          const value = signals?.[name];
          if (typeof value === 'boolean') {
            list.push({
              preference: value ? 'allowed' : 'disallowed',
              source: `robots.txt Content-Signal: ${name}=${value ? 'yes' : 'no'}`,
            });
          }
        }
        let page: PagePolicyResult | undefined;
        let pageStatus: number | undefined;
        if (verdict.allowed) {
          const response = await fetch(url, {
            headers: { 'user-agent': options.userAgent },
            signal: AbortSignal.timeout(options.timeout),
          }).catch((error: Error) => {
            throw new CliError(`cannot fetch ${url}: ${String(error.cause ?? error.message)}`);
          });
          pageStatus = response.status;
          page = await pagePolicy(
            { headers: response.headers, ...(response.body ? { html: response.body } : {}) },
            options.agent,
          );
          await response.body?.cancel().catch(() => {});
          for (const label of ['train-ai', 'search'] as const) {
            const said = page.contentUsage?.[label];
            if (said && said !== 'unknown') {
              (label === 'train-ai' ? trainAi : search).push({
                preference: said,
                source: `Content-Usage header: ${label}`,
              });
            }
          }
          if (!page.policy.ai) {
            const by = page.decidedBy.ai;
            trainAi.push({
              preference: 'disallowed',
              source: `${by?.kind === 'meta' ? 'robots meta tag' : (by?.field ?? 'X-Robots-Tag')}: ${by?.text ?? 'noai'}`,
            });
          }
        }
        const index = !verdict.allowed
          ? {
              may: false,
              why: 'not by content: robots.txt blocks fetching (the bare URL may still be indexed from links)',
            }
          : pageStatus !== undefined && pageStatus >= 400
            ? { may: false, why: `the page answered HTTP ${pageStatus}` }
            : {
                may: page?.policy.index ?? true,
                why: page?.decidedBy.index ? `${page.decidedBy.index.text}` : 'no noindex',
              };
        answer = {
          url,
          agent: options.agent,
          fetch: {
            may: verdict.allowed,
            why: verdict.line ? `robots.txt line ${verdict.line}` : verdict.reason,
          },
          index,
          'train-ai': combined(trainAi, verdict.allowed),
          search: combined(search, verdict.allowed),
        };
      } finally {
        await client.close();
      }
      if (options.json) {
        output.out(JSON.stringify(answer));
      } else {
        const { color } = output;
        const yes = (ok: boolean) => (ok ? color.green('yes') : color.red('no'));
        const row = (name: string, value: string) =>
          output.out(`${color.bold(name.padEnd(10))} ${value}`);
        row('url', url);
        row('agent', options.agent.join(', '));
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
          row(
            label,
            `${shown}  ${color.dim(statements.map((s) => `${s.source} (${s.preference})`).join('; ') || (answer.fetch.may ? 'nothing says' : 'the URL may not be fetched'))}`,
          );
        }
      }
      if (!answer.fetch.may) process.exitCode = 1;
    });
}

/** Statements combined as the vocabulary says; none for a URL that may not be fetched. */
function combined(statements: Said[], fetchable: boolean): UsageAnswer {
  if (!fetchable) return { preference: 'unknown', statements: [] };
  const preference = statements.some((s) => s.preference === 'disallowed')
    ? 'disallowed'
    : statements.some((s) => s.preference === 'allowed')
      ? 'allowed'
      : 'unknown';
  return { preference, statements };
}
