/**
 * What repkit's other areas (the CLI, the service, the tester) use of fetch and users do not:
 * not a package entry, and not part of the public surface.
 */
export {
  verdictFromState,
  agentsFor,
  fileVerdict,
  formsVerdict,
  judgeForms,
  requestedForm,
  readLater,
} from './answers/verdict.ts';
export {
  diffVerdicts,
  groupChanges,
  probePaths,
  addRuleProbes,
  MAX_PROBES,
  type ChangeGroup,
  namedAgents,
  ANY_OTHER_AGENT,
  type DiffSide,
  type SideVerdict,
  type VerdictChange,
} from './answers/diff.ts';
export { usageFor } from './answers/usage.ts';
export { admitRequest, storeFailed, type Admission, type DeferReason } from './admit-request.ts';
export { freshLifetime } from './files/lifetimes.ts';
export { readNames } from './options.ts';
export { isPrivateAddress } from './net/addresses.ts';
export type { AgentMode } from './answers/verdict.ts';
export type { FetchReport, TdmrepState } from './client.ts';
export type { RobotsLocation } from './net/location.ts';
export type { UsageDecision, UsageSource, UsageStatement, Permission } from './answers/usage.ts';
export { DEFAULT_POLITENESS, SLOW_DOWN, type PolitenessPolicy, type Turn } from './politeness.ts';
export { DEFAULT_POLICY, type CachePolicy } from './files/lifetimes.ts';
export type { AddressFilter } from './net/addresses.ts';
export { crawlerAccess, type CrawlerAccess } from './answers/known-crawlers.ts';
