import type { Command } from 'commander';
import { defaultLifetime } from '../../fetch/internal.ts';
import type { Output } from '../output.ts';
import { describeFetch, loadRobots, notRobotsTxtNote, siteUrlOf } from '../robots-source.ts';
import { fetchOptions, type EdgeOptions } from '../fetching.ts';

function duration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}

export function registerFetch(program: Command, output: Output): void {
  fetchOptions(program.command('fetch'))
    .description(
      "fetch a site's robots.txt and show what came back, how long it may be cached, and its groups",
    )
    .argument('<url>', 'any URL of the site')
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      `
Examples:
  $ repkit fetch https://example.com
  $ repkit fetch example.com                       (read as https://example.com/)
  $ repkit fetch https://example.com/some/page --json

Exit status: 0 a robots.txt or a 4xx came back, 1 the server could not be reached (server error), 2 usage error.`,
    )
    .action((url, options) => runFetch(url, options, output));
}

/** `repkit fetch`: the command's work, given its arguments and options as parsed. */
export async function runFetch(
  url: string,
  options: { json?: boolean; userAgent: string; timeout: number } & EdgeOptions,
  output: Output,
): Promise<void> {
  url = siteUrlOf(url, output);
  const loaded = await loadRobots(url, { ...options, profile: 'google' });
  const state = loaded.fetched!;
  const { entry } = state;
  const lifetime = entry.expiresAt - entry.fetchedAt;
  const groups = loaded.robots.groups;
  // A page served as robots.txt is the most common way a site loses its rules; UTF-16
  // text and binary data too. Said as check says it.
  const notRobotsTxt = entry.outcome === 'ok' ? loaded.robots.notRobotsTxt : undefined;
  const warning = notRobotsTxt ? notRobotsTxtNote('the body', notRobotsTxt) : undefined;
  if (options.json) {
    output.out(
      JSON.stringify({
        robotsUrl: state.location.robotsUrl,
        outcome: entry.outcome,
        status: entry.status,
        chain: entry.chain,
        headers: entry.headers,
        bytes: loaded.bytes.length,
        truncated: entry.truncated ?? false,
        lifetimeMs: lifetime,
        defaultLifetimeMs: defaultLifetime(),
        ...(entry.error ? { error: entry.error } : {}),
        ...(entry.errorCode ? { errorCode: entry.errorCode } : {}),
        ...(entry.edge ? { edge: entry.edge } : {}),
        ...(entry.edgeRead ? { reading: entry.edgeRead } : {}),
        ...(notRobotsTxt ? { notRobotsTxt, warning } : {}),
        groups,
        sitemaps: loaded.robots.sitemaps,
      }),
    );
  } else {
    const { color } = output;
    const row = (name: string, value: string) =>
      output.out(`${color.bold(name.padEnd(10))} ${value}`);
    row('robots', state.location.robotsUrl);
    row('result', describeFetch(state));
    if (warning) row('warning', color.yellow(warning));
    entry.chain.slice(1).forEach((hop, i) => row(`redirect ${i + 1}`, `→ ${hop}`));
    for (const name of [
      'cache-control',
      'expires',
      'date',
      'retry-after',
      'content-type',
      'content-encoding',
    ]) {
      if (entry.headers[name]) row('header', `${name}: ${entry.headers[name]}`);
    }
    row(
      'size',
      `${loaded.bytes.length} bytes${entry.truncated ? ' (cut at the 500 KiB limit)' : ''}`,
    );
    row(entry.outcome === 'error' ? 'retry in' : 'cache for', duration(lifetime));
    groups.forEach((group, i) => {
      output.out('');
      output.out(
        color.bold(`group ${i + 1}`) +
          color.dim(`  line ${group.agentLines[0]}`) +
          `  user-agent: ${group.agents.join(', ')}`,
      );
      for (const rule of group.rules)
        output.out(`  line ${String(rule.line).padStart(5)}  ${rule.kind.padEnd(8)} ${rule.value}`);
      if (group.rules.length === 0) output.out(color.dim('         (no rules)'));
    });
    if (loaded.robots.sitemaps.length) {
      output.out('');
      for (const sitemap of loaded.robots.sitemaps) row('sitemap', sitemap);
    }
  }
  if (entry.outcome === 'error') process.exitCode = 1;
}
