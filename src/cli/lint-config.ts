/**
 * How `repkit lint` is configured, as eslint users expect: a rule turned off or its severity
 * changed, by flag (`--rule typo=error`) or in a configuration file (`repkit.config.json`,
 * `repkit.config.yaml`, or a `"repkit"` key in package.json), and the most warnings a run
 * may have (`--max-warnings`). Flags win over the file.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  LINT_RULES,
  type Diagnostic,
  type DiagnosticCode,
  type LintReport,
} from '../core/index.ts';
import { CliError } from './errors.ts';
import { MAX_TEXT_BYTES, readSmallText } from './files.ts';
import { parseDocument } from './toolkit.ts';

type Severity = Diagnostic['severity'];

/** What a rule is set to: a severity, or `off` (not reported). */
export type RuleSetting = Severity | 'off';

export interface LintConfig {
  rules: Partial<Record<DiagnosticCode, RuleSetting>>;
  maxWarnings?: number;
  /** Where it was read from, for messages. */
  source?: string;
}

const SETTINGS: readonly RuleSetting[] = ['off', 'info', 'warning', 'error'];

/** The files looked for in the working directory, in this order. */
const CONFIG_FILES = ['repkit.config.json', 'repkit.config.yaml', 'repkit.config.yml'];

/** A rule's code, checked: a typo in a configuration never silently does nothing. */
function ruleCode(code: string, where: string): DiagnosticCode {
  if (Object.hasOwn(LINT_RULES, code)) return code as DiagnosticCode;
  throw new CliError(
    `${where}: no lint rule is called "${code}" (the rules: ${Object.keys(LINT_RULES).join(', ')})`,
  );
}

function setting(value: unknown, where: string): RuleSetting {
  if (typeof value === 'string' && (SETTINGS as string[]).includes(value)) {
    return value as RuleSetting;
  }
  throw new CliError(`${where}: ${JSON.stringify(value)} is not one of ${SETTINGS.join(', ')}`);
}

/** `--rule code=setting`, collected over repeats. */
export function ruleFlag(
  value: string,
  previous: Partial<Record<DiagnosticCode, RuleSetting>> = {},
): Partial<Record<DiagnosticCode, RuleSetting>> {
  const equals = value.indexOf('=');
  if (equals < 0) throw new CliError(`--rule ${value}: give code=setting, as in typo=error`);
  const code = ruleCode(value.slice(0, equals).trim(), '--rule');
  return { ...previous, [code]: setting(value.slice(equals + 1).trim(), `--rule ${value}`) };
}

/** The `lint` part of a configuration object read from `source`. */
function lintPart(config: unknown, source: string): LintConfig {
  if (config === undefined || config === null) return { rules: {}, source };
  if (typeof config !== 'object' || Array.isArray(config)) {
    throw new CliError(`${source}: the configuration must be an object`);
  }
  const lint = (config as { lint?: unknown }).lint;
  if (lint === undefined) return { rules: {}, source };
  if (typeof lint !== 'object' || lint === null || Array.isArray(lint)) {
    throw new CliError(`${source}: "lint" must be an object with "rules" and "maxWarnings"`);
  }
  const { rules = {}, maxWarnings, ...rest } = lint as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    throw new CliError(`${source}: "lint" takes "rules" and "maxWarnings", not "${unknown[0]}"`);
  }
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
    throw new CliError(`${source}: "lint.rules" must map rule codes to a setting`);
  }
  const read: LintConfig = { rules: {}, source };
  for (const [code, value] of Object.entries(rules)) {
    read.rules[ruleCode(code, `${source}: lint.rules`)] = setting(
      value,
      `${source}: lint.rules.${code}`,
    );
  }
  if (maxWarnings !== undefined) {
    if (!Number.isInteger(maxWarnings) || (maxWarnings as number) < 0) {
      throw new CliError(`${source}: "lint.maxWarnings" must be a whole number, 0 or more`);
    }
    read.maxWarnings = maxWarnings as number;
  }
  return read;
}

/** Parses a configuration file's text (JSON is YAML too); a syntax error names the file. */
function parsed(text: string, source: string): unknown {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new CliError(
      `${source}: not valid ${source.endsWith('.json') ? 'JSON' : 'YAML'}: ${doc.errors[0]!.message}`,
    );
  }
  return doc.toJS();
}

/**
 * The configuration: the file given (`--config`), else the first of `repkit.config.json`,
 * `.yaml`, `.yml` in `cwd`, else package.json's `"repkit"` key; none is no change.
 */
export function loadLintConfig(given: string | undefined, cwd = process.cwd()): LintConfig {
  const read = (path: string) => readSmallText(path, MAX_TEXT_BYTES);
  if (given !== undefined) return lintPart(parsed(read(given), given), given);
  for (const name of CONFIG_FILES) {
    const path = join(cwd, name);
    if (existsSync(path)) return lintPart(parsed(read(path), name), name);
  }
  const pkg = join(cwd, 'package.json');
  if (existsSync(pkg)) {
    let json: unknown;
    try {
      json = JSON.parse(read(pkg));
    } catch {
      return { rules: {} }; // not ours to judge
    }
    const own = (json as { repkit?: unknown } | null)?.repkit;
    if (own !== undefined) return lintPart(own, 'package.json "repkit"');
  }
  return { rules: {} };
}

/** `report` with the configured settings: rules off dropped, severities changed, recounted. */
export function configured(
  report: LintReport,
  rules: Partial<Record<DiagnosticCode, RuleSetting>>,
): LintReport {
  if (Object.keys(rules).length === 0) return report;
  const diagnostics: Diagnostic[] = [];
  for (const d of report.diagnostics) {
    const set = rules[d.code];
    if (set === 'off') continue;
    diagnostics.push(set === undefined || set === d.severity ? d : { ...d, severity: set });
  }
  const count = (severity: Severity) => diagnostics.filter((d) => d.severity === severity).length;
  return {
    ...report,
    diagnostics,
    errors: count('error'),
    warnings: count('warning'),
    infos: count('info'),
  };
}
