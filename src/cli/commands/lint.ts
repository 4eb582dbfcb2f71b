import type { Command } from 'commander';
import { lint, type Diagnostic, type LintReport } from '../../core/index.ts';
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
    .option('-q, --quiet', 'errors only')
    .addHelpText(
      'after',
      `
Examples:
  $ repkit lint robots.txt
  $ curl -s https://example.com/robots.txt | repkit lint -
  $ repkit lint https://example.com --json

Severities: error (something is ignored or broken), warning (Google copes, others may not),
info (worth knowing). The first line is the verdict on the file; --quiet shows errors only.
Exit status: 0 no errors, 1 errors, 2 usage or input error.`,
    )
    .action(
      async (
        source: string,
        options: { json?: boolean; quiet?: boolean; userAgent: string; timeout: number },
      ) => {
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
          // The verdict on the file first, then its diagnostics (errors only with --quiet).
          output.out(`${loaded.label}: ${verdictOf(report)}`);
          const shown = options.quiet
            ? report.diagnostics.filter((d) => d.severity === 'error')
            : report.diagnostics;
          for (const d of shown) output.out(formatDiagnostic(output, loaded.label, d));
          if (report.diagnostics.length > 0) {
            output.out(
              `\n${report.errors} error(s), ${report.warnings} warning(s), ${report.infos} note(s)`,
            );
          }
        }
        if (report.errors > 0) process.exitCode = 1;
      },
    );
}

const FILE_LEVEL = new Set(['html-content', 'utf-16', 'binary-content']);

/** One line on the whole file. */
function verdictOf(report: LintReport): string {
  const file = report.diagnostics.find((d) => FILE_LEVEL.has(d.code));
  if (file) return `not a robots.txt Google can use (${file.code})`;
  if (report.errors > 0) return `${report.errors} error(s): Google ignores or misreads part of it`;
  if (report.warnings > 0) return `read by Google, with ${report.warnings} warning(s)`;
  return 'no problems found';
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
