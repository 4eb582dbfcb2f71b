/**
 * repkit core: Google-exact robots.txt parsing and matching. No dependencies and no Node
 * APIs: the same code runs in Node, browsers, Workers and Deno.
 */
export {
  parse,
  tokenizeBody,
  DEFAULT_MAX_BYTES,
  type ParseOptions,
  type RobotsBody,
} from './parse.ts';
export { RobotsTxt } from './robots.ts';
export type { UserAgent, Explanation, Verdict, RuleMatch, VerdictReason } from './verdicts.ts';
export type { Group } from './groups.ts';
export type { Rule } from './tables.ts';
export type { Extra, RequestRate, CleanParam } from './extras.ts';
export type { ProfileName } from './profiles.ts';
export { productToken, isValidProductToken, isGlobalAgent } from './agents.ts';
export { pathParamsQuery } from './url.ts';
export { googleEscape } from './pattern.ts';
export {
  MAX_LINE_BYTES,
  type Directive,
  type DirectiveKind,
  type LineInfo,
  type TokenHandler,
} from './tokenizer.ts';
export { RepkitError, InvalidInputError } from './errors.ts';
export {
  lint,
  type Diagnostic,
  type DiagnosticCode,
  type LintReport,
  type Severity,
} from './lint.ts';
export { KNOWN_AGENTS, type KnownAgent } from './known-agents.ts';
