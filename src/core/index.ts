/**
 * repkit core: Google-exact robots.txt parsing and matching. No dependencies and no Node
 * APIs: the same code runs in Node, browsers, Workers and Deno. Specialised parts have their
 * own entries: `repkit/tokenizer` (the token stream), `repkit/tdmrep` (W3C TDMRep) and
 * `repkit/agents` (the known-crawler list); `internal.ts` serves repkit's other areas only.
 * Every type a public signature uses is exported by name, so that the reference and an
 * editor can show it.
 *
 * @module repkit
 */
export { parse, type ParseOptions } from './parse.ts';
export { RobotsTxt } from './answers/robots-txt.ts';
export type {
  ContentUsage,
  UsageLabel,
  UsagePreference,
  UsageRule,
} from './match/content-usage.ts';
export type { UsageDecision, UsageStatement } from './answers/robots-txt-usage.ts';
export type { UsageSource } from './answers/usage-source.ts';
export type {
  UserAgent,
  Explanation,
  Verdict,
  RuleMatch,
  VerdictReason,
  AgentNote,
} from './match/verdicts.ts';
export type { Extra, RequestRate, CleanParam, ContentSignals } from './model/extras.ts';
export type { SignalLine } from './answers/content-signals.ts';
export type { RootLink } from './answers/root-links.ts';
export type { RobotsBody } from './tokens/body.ts';
export type { Group } from './model/groups.ts';
export type { Rule } from './model/tables.ts';
export type { ProfileName } from './profiles/index.ts';
export type { NotRobotsTxt } from './text/file-kind.ts';
export { classifyEdge, type Edge, type EdgeVendor, type EdgeInput } from './edge/classify.ts';
export type { EdgePrice } from './edge/price.ts';
export type { PaymentChallengePrice } from './edge/payment-auth.ts';
export {
  productToken,
  isValidProductToken,
  crawlerName,
  crawlerNames,
  type CrawlerName,
} from './agents/names.ts';
export { requestTarget, type RequestTarget } from './match/url.ts';
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
export type { DiagnosticCode, Severity } from './lint/types.ts';
export { LINT_RULES } from './lint/rules.ts';
