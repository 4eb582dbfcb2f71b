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
} from './verdict.ts';
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
} from './diff.ts';
export { usageFor } from './usage.ts';
export { admitRequest, storeFailed, type Admission, type DeferReason } from './admission.ts';
export { freshLifetime } from './policy.ts';
export { readNames } from './options.ts';
export { isPrivateAddress } from './addresses.ts';
export type { AgentMode } from './verdict.ts';
export type { FetchReport, TdmrepState } from './client.ts';
export type { RobotsLocation } from './location.ts';
export type { UsageDecision, UsageSource, UsageStatement, Permission } from './usage.ts';
export { DEFAULT_POLITENESS, SLOW_DOWN, type PolitenessPolicy, type Turn } from './politeness.ts';
export { DEFAULT_POLICY, type CachePolicy } from './policy.ts';
export type { AddressFilter } from './addresses.ts';
export { crawlerAccess, type CrawlerAccess } from './known-crawlers.ts';
