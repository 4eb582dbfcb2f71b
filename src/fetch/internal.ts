/**
 * What repkit's other areas (the CLI, the service, the tester) use of fetch and users do not:
 * not a package entry, and not part of the public surface.
 */
export { verdictFromState, agentsFor } from './verdict.ts';
export { usageFor } from './usage.ts';
export { freshLifetime } from './policy.ts';
export { isPrivateAddress } from './addresses.ts';
