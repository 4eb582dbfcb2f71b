import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { glob, isDynamicPattern, Option } from '../toolkit.ts';
import { configured, loadLintConfig, ruleFlag, type RuleSetting } from '../lint-config.ts';
import type { DiagnosticCode } from '../../core/index.ts';
import { integer } from '../options.ts';
import { githubLines, sarifLog, type LintedFile } from '../lint-formats.ts';
import { packageVersion } from '../version.ts';
import { lint, type Diagnostic, type LintReport } from '../../core/index.ts';
import { CliError } from '../errors.ts';
import type { Output } from '../output.ts';
import {
  describeFetch,
  isUrl,
  loadRobots,
  wallWords,
  type LoadedRobots,
} from '../robots-source.ts';
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
    .option(
      '--rule <code=setting>',
      'turn a rule off or change its severity (off, info, warning, error); repeat for more',
      (value: string, previous?: Partial<Record<DiagnosticCode, RuleSetting>>) =>
        ruleFlag(value, previous),
    )
    .option(
      '--config <file>',
      'the configuration file (default: repkit.config.json, .yaml or .yml here, or package.json "repkit")',
    )
    .option(
      '--max-warnings <n>',
      'fail (exit 1) when the files have more warnings than this in all',
      integer('--max-warnings', 0, Number.MAX_SAFE_INTEGER),
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
  $ repkit lint 'sites/**/robots.txt' --rule ignored-by-google=off --max-warnings 0

Configuration (flags win over it), in repkit.config.json (or .yaml), or under "repkit" in
package.json:
  { "lint": { "rules": { "typo": "error", "ignored-by-google": "off" }, "maxWarnings": 0 } }

Severities: error (something is ignored or broken), warning (Google copes, others may not),
info (worth knowing). The first line of each file's report is the verdict on it; --quiet
shows errors only. Exit status: 0 no errors, 1 errors in some file (or more warnings than
--max-warnings), 2 usage or input error.`,
    )
    .action((sources, options) => runLint(sources, options, output));
}

/** `repkit lint`: the command's work, given its arguments and options as parsed. */
export async function runLint(
  sources: string[],
  options: {
    json?: boolean;
    quiet?: boolean;
    format: 'text' | 'json' | 'sarif' | 'github';
    userAgent: string;
    timeout: number;
    rule?: Partial<Record<DiagnosticCode, RuleSetting>>;
    config?: string;
    maxWarnings?: number;
  } & EdgeOptions,
  output: Output,
): Promise<void> {
  const config = loadLintConfig(options.config);
  const rules = { ...config.rules, ...options.rule };
  const maxWarnings = options.maxWarnings ?? config.maxWarnings;
  const report = (loaded: LoadedRobots) => configured(lint(loaded.bytes), rules);
  sources = await expandGlobs(sources);
  let warnings = 0;
  const tooManyWarnings = () => {
    if (maxWarnings === undefined || warnings <= maxWarnings) return false;
    output.err(`repkit: ${warnings} warning(s), more than --max-warnings ${maxWarnings}`);
    return true;
  };
  if (options.format === 'sarif' || options.format === 'github') {
    // Whole-run formats: every file read first, then one log (or one line per problem).
    const files: LintedFile[] = [];
    for (const source of sources) {
      const loaded = await loadSource(source, options);
      const wall = loaded.fetched && wallWords(loaded.fetched);
      if (wall && loaded.fetched?.entry.outcome !== 'ok') {
        throw new CliError(`${loaded.label}: ${wall}; nothing to lint`);
      }
      const linted = report(loaded);
      warnings += linted.warnings;
      files.push({ label: loaded.label, report: linted });
    }
    if (options.format === 'sarif') {
      output.out(JSON.stringify(sarifLog(files, packageVersion()), null, 2));
    } else {
      for (const line of githubLines(files)) output.out(line);
    }
    if (files.some((f) => f.report.errors > 0) || tooManyWarnings()) process.exitCode = 1;
    return;
  }
  if (options.format === 'json') options.json = true;
  for (const [i, source] of sources.entries()) {
    // A blank line between files' reports.
    if (i > 0 && !options.json) output.out('');
    const loaded = await loadSource(source, options);
    const linted = report(loaded);
    warnings += linted.warnings;
    if (
      reportWall(output, loaded, linted, options.json) ||
      lintOne(output, loaded, linted, options)
    ) {
      process.exitCode = 1;
    }
  }
  if (tooManyWarnings()) process.exitCode = 1;
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
function reportWall(
  output: Output,
  loaded: LoadedRobots,
  linted: LintReport,
  json: boolean | undefined,
): boolean {
  const entry = loaded.fetched?.entry;
  const words = loaded.fetched && wallWords(loaded.fetched);
  if (!entry?.edge || !words) return false;
  if (json) {
    const { edge, edgeRead: reading, status } = entry;
    const record = { robots: loaded.label, status, edge, reading };
    // Read literally, a 2xx wall's page is linted as the file Google reads.
    const report =
      entry.outcome === 'ok' ? linted : { errors: 1, warnings: 0, infos: 0, diagnostics: [] };
    output.out(JSON.stringify({ ...record, ...report }));
    return true;
  }
  output.out(`${loaded.label}: ${output.color.red('error')}  ${words}`);
  if (entry.outcome === 'ok') lintOne(output, loaded, linted, {});
  return true;
}

/** Writes one file's report; true when it has errors. */
function lintOne(
  output: Output,
  loaded: LoadedRobots,
  report: LintReport,
  options: { json?: boolean; quiet?: boolean },
): boolean {
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

/**
 * File arguments with their globs expanded (`'sites/**\/robots.txt'`, quoted so that every
 * shell and CI passes it as written), sorted; a file that exists by that name is the file,
 * and a glob that matches nothing is an input error.
 */
async function expandGlobs(sources: readonly string[]): Promise<string[]> {
  const expanded: string[] = [];
  for (const source of sources) {
    if (source === '-' || isUrl(source) || existsSync(source) || !isDynamicPattern(source)) {
      expanded.push(source);
      continue;
    }
    const found = (
      await glob(source, { onlyFiles: true, dot: false, expandDirectories: false })
    ).sort();
    if (found.length === 0) throw new CliError(`no file matches ${source}`);
    expanded.push(...found);
  }
  return expanded;
}
