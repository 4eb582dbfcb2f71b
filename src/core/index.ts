/**
 * repkit core: Google-exact robots.txt parsing and matching. No dependencies and no Node
 * APIs: the same code runs in Node, browsers, Workers and Deno. Specialised parts have their
 * own entries: `repkit/tokenizer` (the token stream), `repkit/tdmrep` (W3C TDMRep) and
 * `repkit/agents` (the known-crawler list); `internal.ts` serves repkit's other areas only.
 * The shapes inside these types (a lint diagnostic, a Content-Usage rule...) are named by
 * where they are: `LintReport['diagnostics'][number]`, `ContentUsage['rules']`.
 */
export { parse, type ParseOptions } from './parse.ts';
export { RobotsTxt } from './answers/robots-txt.ts';
export type { ContentUsage } from './match/content-usage.ts';
export type {
  UserAgent,
  Explanation,
  Verdict,
  RuleMatch,
  VerdictReason,
} from './match/verdicts.ts';
export type { Group } from './model/groups.ts';
export type { Rule } from './model/tables.ts';
export type { ProfileName } from './profiles/index.ts';
export type { NotRobotsTxt } from './text/file-kind.ts';
export { classifyEdge, type Edge } from './edge/classify.ts';
export { productToken, isValidProductToken, crawlerName, crawlerNames } from './agents/names.ts';
export { requestTarget } from './match/url.ts';
export {
  RepkitError,
  isRepkitError,
  InvalidInputError,
  isInvalidInputError,
  MissingPeerError,
  isMissingPeerError,
  type RepkitErrorCode,
} from './errors.ts';
export { lint, type Diagnostic, type LintReport } from './lint/lint.ts';
export type { DiagnosticCode } from './lint/types.ts';
export { LINT_RULES } from './lint/rules.ts';
