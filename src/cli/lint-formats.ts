/**
 * `repkit lint --format sarif|github`: the diagnostics for code scanning (SARIF 2.1.0, one
 * run, a result per diagnostic at its file, line and column) and as GitHub Actions
 * annotations.
 */
import type { Diagnostic, LintReport } from '../core/index.ts';
import { LINT_RULES } from '../core/index.ts';
import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { workflowText } from './github.ts';

export interface LintedFile {
  /** The path given, or the robots.txt URL. */
  label: string;
  report: LintReport;
}

/** Where every rule is described: `repkit lint`'s page, under package.json's `repository`. */
export const RULES_URI = 'https://github.com/repkit/repkit/blob/main/docs/cli/lint.md#rules';

const SARIF_LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** A SARIF 2.1.0 log of every file's diagnostics. */
export function sarifLog(files: readonly LintedFile[], version: string): object {
  const rules = new Map<string, Diagnostic['severity']>();
  for (const { report } of files) for (const d of report.diagnostics) rules.set(d.code, d.severity);
  const ids = [...rules.keys()].sort();
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'repkit',
            version,
            semanticVersion: version,
            informationUri: 'https://github.com/repkit/repkit#readme',
            rules: ids.map((id) => {
              const what = LINT_RULES[id as keyof typeof LINT_RULES] ?? id;
              return {
                id,
                shortDescription: { text: what },
                fullDescription: { text: `robots.txt lint, ${id}: ${what}` },
                help: {
                  text: `${what}. repkit lint's page lists every rule and what Google does with the line: ${RULES_URI}`,
                  markdown: `**${id}**: ${what}. See [repkit lint](${RULES_URI}) for every rule.`,
                },
                helpUri: RULES_URI,
                defaultConfiguration: { level: SARIF_LEVEL[rules.get(id)!] },
              };
            }),
          },
        },
        results: files.flatMap(({ label, report }) =>
          report.diagnostics.map((d) => ({
            ruleId: d.code,
            ruleIndex: ids.indexOf(d.code),
            level: SARIF_LEVEL[d.severity],
            message: { text: d.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: artifactUri(label) },
                  region: { startLine: d.line, startColumn: d.column },
                },
              },
            ],
          })),
        ),
      },
    ],
  };
}

/**
 * A file's label as a SARIF artifact URI (a URI reference, RFC 3986): a URL as it is; an
 * absolute path as a `file:` URL; a relative one with each segment %-encoded (a space, `%`,
 * `#`, `?` or a non-ASCII letter would otherwise make another URI, or none).
 */
export function artifactUri(label: string): string {
  if (/^https?:\/\//i.test(label)) return label;
  if (isAbsolute(label)) return pathToFileURL(label).href;
  return label.split(sep).map(encodeURIComponent).join('/');
}

const GITHUB_COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

/** One `::error|warning|notice file=…,line=…,col=…,title=code::message` line per diagnostic. */
export function githubLines(files: readonly LintedFile[]): string[] {
  return files.flatMap(({ label, report }) =>
    report.diagnostics.map(
      (d) =>
        `::${GITHUB_COMMAND[d.severity]} file=${workflowText(label, true)},line=${d.line},col=${d.column},title=${workflowText(d.code, true)}::${workflowText(d.message)}`,
    ),
  );
}
