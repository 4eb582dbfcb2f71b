import type { Command } from 'commander';
import { lint, type Diagnostic } from '../../core/index.ts';
import { CliError } from '../errors.ts';
import type { Output } from '../output.ts';
import { describeFetch, loadRobots } from '../robots-source.ts';
import { fetchOptions } from '../fetching.ts';

export function registerLint(program: Command, output: Output): void {
  fetchOptions(program.command('lint'))
    .description(
      'report what Google reads, accepts with typos, ignores, or never uses in a robots.txt',
    )
    .argument(
      '<file|url>',
      'a robots.txt file (- for standard input), or a URL of the site (its robots.txt is fetched)',
    )
    .option('--json', 'the report as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ repkit lint robots.txt
  $ curl -s https://example.com/robots.txt | repkit lint -
  $ repkit lint https://example.com --json

Severities: error (something is ignored or broken), warning (Google copes, others may not),
info (worth knowing). Exit status: 0 no errors, 1 errors, 2 usage or input error.`,
    )
    .action(
      async (source: string, options: { json?: boolean; userAgent: string; timeout: number }) => {
        const loaded = await loadRobots(source, {
          profile: 'google',
          userAgent: options.userAgent,
          timeout: options.timeout,
        });
        if (
          loaded.fetched &&
          loaded.fetched.entry.outcome !== 'ok' &&
          !loaded.fetched.entry.lastGood
        ) {
          throw new CliError(`${loaded.label}: ${describeFetch(loaded.fetched)}; nothing to lint`);
        }
        const report = lint(loaded.bytes);
        if (options.json) {
          output.out(JSON.stringify({ robots: loaded.label, ...report }));
        } else {
          for (const d of report.diagnostics) output.out(formatDiagnostic(output, loaded.label, d));
          const summary = `${report.errors} error(s), ${report.warnings} warning(s), ${report.infos} note(s)`;
          output.out(
            report.diagnostics.length ? `\n${summary}` : `${loaded.label}: no problems found`,
          );
        }
        if (report.errors > 0) process.exitCode = 1;
      },
    );
}

function formatDiagnostic(output: Output, label: string, d: Diagnostic): string {
  const { color } = output;
  const severity =
    d.severity === 'error'
      ? color.red('error  ')
      : d.severity === 'warning'
        ? color.yellow('warning')
        : color.cyan('info   ');
  return `${label}:${d.line}:${d.column}  ${severity}  ${d.message}  ${color.dim(d.code)}`;
}
