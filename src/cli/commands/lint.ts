import type { Command } from 'commander';
import { Option } from '../toolkit.ts';
import { githubLines, sarifLog, type LintedFile } from '../lint-formats.ts';
import { packageVersion } from '../version.ts';
import { lint, type Diagnostic, type LintReport } from '../../core/index.ts';
import { CliError } from '../errors.ts';
import type { Output } from '../output.ts';
import { describeFetch, loadRobots, wallWords, type LoadedRobots } from '../robots-source.ts';
import { fetchOptions, type EdgeOptions } from '../fetching.ts';

export function registerLint(program: Command, output: Output): void {
  fetchOptions(program.command('lint'))
    .description(
      'report what Google reads, accepts with typos, ignores, or never uses in a robots.txt',
    )
    .argument(
      '<file|url...>',
      'robots.txt files (- for standard input), or URLs of sites (their robots.txt is fetched)',
    )
    .option('--json', 'the report as JSON, one object per file, per line')
    .option('-q, --quiet', 'errors only')
    .addOption(
      new Option(
        '--format <format>',
        'text, json (as --json), sarif (SARIF 2.1.0, for code scanning) or github (annotations)',
      )
        .choices(['text', 'json', 'sarif', 'github'])
        .default('text'),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ repkit lint robots.txt
  $ repkit lint sites/*/robots.txt --quiet
  $ repkit lint public/robots.txt --format sarif > robots.sarif
  $ curl -s https://example.com/robots.txt | repkit lint -
  $ repkit lint https://example.com --json

Severities: error (something is ignored or broken), warning (Google copes, others may not),
info (worth knowing). The first line of each file's report is the verdict on it; --quiet
shows errors only. Exit status: 0 no errors, 1 errors in some file, 2 usage or input error.`,
    )
    .action(
      async (
        sources: string[],
        options: {
          json?: boolean;
          quiet?: boolean;
          format: 'text' | 'json' | 'sarif' | 'github';
          userAgent: string;
          timeout: number;
        } & EdgeOptions,
      ) => {
        if (options.format === 'sarif' || options.format === 'github') {
          // Whole-run formats: every file read first, then one log (or one line per problem).
          const files: LintedFile[] = [];
          for (const source of sources) {
            const loaded = await loadSource(source, options);
            const wall = loaded.fetched && wallWords(loaded.fetched);
            if (wall && loaded.fetched?.entry.outcome !== 'ok') {
              throw new CliError(`${loaded.label}: ${wall}; nothing to lint`);
            }
            files.push({ label: loaded.label, report: lint(loaded.bytes) });
          }
          if (options.format === 'sarif') {
            output.out(JSON.stringify(sarifLog(files, packageVersion()), null, 2));
          } else {
            for (const line of githubLines(files)) output.out(line);
          }
          if (files.some((f) => f.report.errors > 0)) process.exitCode = 1;
          return;
        }
        if (options.format === 'json') options.json = true;
        for (const [i, source] of sources.entries()) {
          // A blank line between files' reports.
          if (i > 0 && !options.json) output.out('');
          const loaded = await loadSource(source, options);
          if (reportWall(output, loaded, options.json) || lintOne(output, loaded, options)) {
            process.exitCode = 1;
          }
        }
      },
    );
}

async function loadSource(
  source: string,
  options: { userAgent: string; timeout: number } & EdgeOptions,
): Promise<LoadedRobots> {
  const loaded = await loadRobots(source, { ...options, profile: 'google' });
  const fetched = loaded.fetched;
  // A wall is the finding itself (crawlers cannot read the file): reported, not refused.
  if (
    fetched &&
    fetched.entry.outcome !== 'ok' &&
    !fetched.entry.lastGood &&
    !fetched.entry.edgeRead
  ) {
    throw new CliError(`${loaded.label}: ${describeFetch(fetched)}; nothing to lint`);
  }
  return loaded;
}

/**
 * What lint says of a site whose robots.txt a wall or a payment demand answered: the edge,
 * its evidence and how it was read; an error, since crawlers cannot read the file. Writes
 * nothing and answers false when no wall answered.
 */
function reportWall(output: Output, loaded: LoadedRobots, json: boolean | undefined): boolean {
  const entry = loaded.fetched?.entry;
  const words = loaded.fetched && wallWords(loaded.fetched);
  if (!entry?.edge || !words) return false;
  if (json) {
    const { edge, edgeRead: reading, status } = entry;
    const record = { robots: loaded.label, status, edge, reading };
    // Read literally, a 2xx wall's page is linted as the file Google reads.
    const report =
      entry.outcome === 'ok'
        ? lint(loaded.bytes)
        : { errors: 1, warnings: 0, infos: 0, diagnostics: [] };
    output.out(JSON.stringify({ ...record, ...report }));
    return true;
  }
  output.out(`${loaded.label}: ${output.color.red('error')}  ${words}`);
  if (entry.outcome === 'ok') lintOne(output, loaded, {});
  return true;
}

/** Writes one file's report; true when it has errors. */
function lintOne(
  output: Output,
  loaded: LoadedRobots,
  options: { json?: boolean; quiet?: boolean },
): boolean {
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
  return report.errors > 0;
}

const FILE_LEVEL = new Set(['html-content', 'utf-16', 'binary-content']);

/** One line on the whole file. */
function verdictOf(report: LintReport): string {
  const file = report.diagnostics.find((d) => FILE_LEVEL.has(d.code));
  if (file) return `not a robots.txt Google can use (${file.code})`;
  if (report.errors > 0) return `${report.errors} error(s): Google ignores or misreads part of it`;
  if (report.warnings > 0) return `read by Google, with ${report.warnings} warning(s)`;
  // Notes follow when there are some: the verdict says so, rather than "no problems" alone.
  return report.infos > 0 ? `no problems found; ${report.infos} note(s)` : 'no problems found';
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
