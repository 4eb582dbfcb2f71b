/**
 * repkit core: Google-exact robots.txt parsing and matching. No dependencies and no Node
 * APIs: the same code runs in Node, browsers, Workers and Deno.
 */
export { parse, type ParseOptions } from './parse.ts';
export { tokenizeBody, DEFAULT_MAX_BYTES, type RobotsBody } from './tokens/body.ts';
export { RobotsTxt } from './answers/robots-txt.ts';
export { describeSource, type UsageSource } from './answers/usage-source.ts';
export {
  USAGE_LABELS,
  statementPreferences as usagePreferences,
  type ContentUsage,
  type UsageLabel,
  type UsagePreference,
  type UsageRule,
} from './match/content-usage.ts';
export type {
  UserAgent,
  Explanation,
  Verdict,
  RuleMatch,
  VerdictReason,
  AgentNote,
} from './match/verdicts.ts';
export type { Group } from './model/groups.ts';
export type { Rule } from './model/tables.ts';
export type { Extra, RequestRate, CleanParam, ContentSignals } from './model/extras.ts';
export type { ProfileName } from './profiles/index.ts';
export {
  productToken,
  isValidProductToken,
  isGlobalAgent,
  crawlerName,
  type CrawlerName,
} from './agents/names.ts';
export { pathParamsQuery, requestTarget, type RequestTarget } from './match/url.ts';
export { googleEscape } from './match/pattern.ts';
export {
  parseList as parseStructuredList,
  parseDictionary as parseStructuredDictionary,
  type SfItem,
  type SfListMember,
} from './match/structured-fields.ts';
export {
  MAX_LINE_BYTES,
  type Directive,
  type DirectiveKind,
  type LineInfo,
  type TokenHandler,
} from './tokens/tokenizer.ts';
export {
  RepkitError,
  isRepkitError,
  InvalidInputError,
  isInvalidInputError,
  MissingPeerError,
  isMissingPeerError,
  loadWithPeer,
  type RepkitErrorCode,
} from './errors.ts';
export {
  lint,
  type Diagnostic,
  type DiagnosticCode,
  type LintReport,
  type Severity,
} from './lint/lint.ts';
export { KNOWN_AGENTS, type KnownAgent } from './agents/known.ts';
export {
  parseTdmrep,
  readTdmReservation,
  resolveTdm,
  type TdmAnswer,
  type TdmSource,
  type TdmStatement,
  MAX_TDMREP_RULES,
  type TdmrepFile,
  type TdmrepRule,
  type TdmReservation,
} from './tdmrep/tdmrep.ts';
