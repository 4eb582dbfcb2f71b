/**
 * What repkit's other areas (the CLI, the service, the tester) use of fetch and users do not:
 * not a package entry, and not part of the public surface.
 */
export { verdictFromState, agentsFor, fileVerdict } from './verdict.ts';
export {
  diffVerdicts,
  namedAgents,
  requestedForm,
  ANY_OTHER_AGENT,
  type DiffSide,
  type SideVerdict,
  type VerdictChange,
} from './diff.ts';
export { usageFor } from './usage.ts';
export { freshLifetime } from './policy.ts';
export { isPrivateAddress } from './addresses.ts';
