/**
 * repkit/fetch: robots.txt fetched, cached and refreshed as Google documents, one line per
 * URL for a crawler. Node only (it opens connections); the core stays portable. The shapes
 * inside these types are named by where they are: `RobotsClientOptions['politeness']`,
 * `UsageAnswer['train-ai']`.
 */
export type { CheckResult, CheckReason } from './answers/verdict.ts';
export { RobotsClient, type RobotsClientOptions, type RobotsState } from './client.ts';
export { robotsUrl } from './net/location.ts';
export { admitRequest, type Admission } from './admit-request.ts';
export type { FetchReport } from './files/entry-cache.ts';
export type { UsageAnswer } from './answers/usage.ts';
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

/** The User-Agent repkit's own tools (CLI, service) send unless told otherwise. */
export const REPKIT_USER_AGENT = 'repkit/0.1 (+https://www.npmjs.com/package/repkit)';
