/**
 * repkit/fetch: robots.txt fetched, cached and refreshed as Google documents, one line per
 * URL for a crawler. Node only (it opens connections); the core stays portable.
 */
export { type AgentMode, type CheckResult, type CheckReason } from './verdict.ts';
export {
  RobotsClient,
  type RobotsClientOptions,
  type RobotsState,
  type FetchReport,
  type TdmrepState,
} from './client.ts';
export { robotsUrl, type RobotsLocation } from './location.ts';
export {
  type UsageAnswer,
  type UsageDecision,
  type UsageSource,
  type UsageStatement,
  type Permission,
} from './usage.ts';
export type { FetchOutcome } from './http.ts';
export { DEFAULT_POLITENESS, type PolitenessPolicy, type Turn } from './politeness.ts';
export { DEFAULT_POLICY, type CachePolicy } from './policy.ts';
export {
  InvalidUrlError,
  isInvalidUrlError,
  InvalidOptionError,
  isInvalidOptionError,
  RefusedAddressError,
  isRefusedAddressError,
} from './errors.ts';
export { isPublicAddress, type AddressFilter } from './addresses.ts';

/** The User-Agent repkit's own tools (CLI, service) send unless told otherwise. */
export const REPKIT_USER_AGENT = 'repkit/0.1 (+https://www.npmjs.com/package/repkit)';
