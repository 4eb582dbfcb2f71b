/**
 * repkit/fetch: robots.txt fetched, cached and refreshed as Google documents, one line per
 * URL for a crawler. Node only (it opens connections); the core stays portable. Every type a
 * public signature uses is exported by name.
 *
 * @module repkit/fetch
 */
export type { CheckResult, CheckReason, IgnoresGlobalGroup } from './answers/verdict.ts';
export type { FetchSource, AgentMode, TdmrepState } from './files/state.ts';
export type { AddressFilter } from './net/addresses.ts';
export type { CachePolicy } from './files/lifetimes.ts';
export type { PolitenessPolicy, Turn } from './politeness.ts';
export type { RobotsLocation } from './net/location.ts';
export { RobotsClient, type RobotsClientOptions, type RobotsState } from './client.ts';
export { robotsUrl } from './net/location.ts';
export { admitRequest, type Admission, type DeferReason } from './admit-request.ts';
export type { FetchReport } from './files/entry-cache.ts';
export type { DeclaredLink, LlmsTxtFetch } from './answers/site-links.ts';
export { LLMS_TXT_MAX_BYTES } from './answers/site-links.ts';
export type { UsageAnswer, Permission, TdmrepFetch } from './answers/usage.ts';
export type { FetchOutcome } from './net/robots-http.ts';
export {
  InvalidUrlError,
  isInvalidUrlError,
  InvalidOptionError,
  isInvalidOptionError,
  RefusedAddressError,
  isRefusedAddressError,
  FetchBudgetError,
  isFetchBudgetError,
} from './errors.ts';
export { isPublicAddress } from './net/addresses.ts';
export { checkWebBotAuth, type WebBotAuthOptions } from './net/identity.ts';
export type { SignatureAgentForm, SignatureAgentType } from './net/signature-agent.ts';

/** The User-Agent repkit's own tools (CLI, service) send unless told otherwise. */
export const REPKIT_USER_AGENT = 'repkit/0.1 (+https://www.npmjs.com/package/repkit)';
