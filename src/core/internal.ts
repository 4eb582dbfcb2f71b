/**
 * What repkit's other areas use of the core and users do not: not a package entry, and not
 * part of the public surface (see ARCHITECTURE.md, "doors").
 */
export { describeSource } from './answers/usage-source.ts';
export { ignoresGlobalGroup } from './answers/special-crawlers.ts';
export {
  robotsTxtStatements,
  decideUsage,
  type UsageStatement,
  type UsageDecision,
} from './answers/robots-txt-usage.ts';
export { statementPreferences as usagePreferences } from './match/content-usage.ts';
export { isGlobalAgent } from './agents/names.ts';
export { serialisedOrigin } from './match/url.ts';
export { NOT_ROBOTS_TXT_WORDS } from './text/file-kind.ts';
export { describeEdge, EDGE_HEAD_BYTES, type EdgeInput } from './edge/classify.ts';
export { parsePriceHeader } from './edge/price.ts';
export { parseList as parseStructuredList } from './match/structured-fields.ts';
export { loadWithPeer } from './errors.ts';
export { BoundedMap, type BoundedMapOptions } from './bounded-map.ts';
export { DEFAULT_MAX_BYTES, type RobotsBody } from './tokens/body.ts';
export type { UsageSource } from './answers/usage-source.ts';
export type { UsageLabel, UsagePreference, UsageRule } from './match/content-usage.ts';
export type { AgentNote } from './match/verdicts.ts';
export type { Extra, RequestRate, CleanParam, ContentSignals } from './model/extras.ts';
export type { CrawlerName } from './agents/names.ts';
export type { RequestTarget } from './match/url.ts';
export type { DiagnosticCode, Severity } from './lint/lint.ts';
export { SEVERITY as LINT_SEVERITY } from './lint/lint.ts';
export { LINT_RULES } from './lint/rules.ts';
