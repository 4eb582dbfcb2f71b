/** The linter's vocabulary, shared by its checks (`lint.ts` and the files beside it). */

/** How much a lint diagnostic matters. */
export type Severity = 'error' | 'warning' | 'info';

/** Stable diagnostic codes (tools may match on them). */
export type DiagnosticCode =
  | 'bom'
  | 'invalid-utf8'
  | 'html-content'
  | 'utf-16'
  | 'binary-content'
  | 'line-cut-by-limit'
  | 'line-too-long'
  | 'nul-byte'
  | 'unparsable-line'
  | 'missing-colon'
  | 'typo'
  | 'key-suffix'
  | 'rule-outside-group'
  | 'ignored-by-google'
  | 'unsupported-directive'
  | 'unknown-key'
  | 'path-not-absolute'
  | 'dollar-not-at-end'
  | 'shadowed-rule'
  | 'duplicate-rule'
  | 'empty-user-agent'
  | 'user-agent-token'
  | 'user-agent-unmatchable'
  | 'merged-user-agents'
  | 'group-without-rules'
  | 'relative-sitemap'
  | 'content-past-limit'
  | 'content-usage-invalid'
  | 'content-usage-unreachable'
  | 'split-group'
  | 'content-signal-invalid'
  | 'content-signal-file-level'
  | 'disallow-all'
  | 'blocked-resources'
  | 'space-in-path'
  | 'empty-file';

/** One finding of `lint()`: what, where, how bad. */
export interface Diagnostic {
  /** Which rule found it (`LINT_RULES` describes each). */
  readonly code: DiagnosticCode;
  /** `error`: Google reads the line otherwise than it seems meant; `warning`: likely a mistake; `info`: worth knowing. */
  readonly severity: Severity;
  /** 1-based line, as Google counts lines. */
  readonly line: number;
  /** 1-based column in bytes. */
  readonly column: number;
  /** What was found, in words. */
  readonly message: string;
  /** Other lines the diagnostic refers to (the rule that shadows, the merged user-agent...). */
  readonly related?: readonly number[];
}

/** What `lint()` found in a file. */
export interface LintReport {
  /** In line order. */
  readonly diagnostics: readonly Diagnostic[];
  /** How many diagnostics are errors. */
  readonly errors: number;
  /** How many are warnings. */
  readonly warnings: number;
  /** How many are infos. */
  readonly infos: number;
}

export type Add = (
  code: DiagnosticCode,
  line: number,
  column: number,
  message: string,
  related?: number[],
) => void;
