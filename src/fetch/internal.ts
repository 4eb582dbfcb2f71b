/**
 * What repkit's other areas (the CLI, the service, MCP, the adapters) use of fetch and users
 * do not: not a package entry, and not part of the public surface. The structure test holds
 * it to names another area imports, at most 15.
 */
export { clientSeam } from './client.ts';
export {
  agentsFor,
  heldVerdict,
  requestJudge,
  readLater,
  type HeldRobots,
} from './answers/verdict.ts';
export { RobotsComparison, probesByAgent } from './answers/diff.ts';
export { crawlerAccess } from './answers/known-crawlers.ts';
export { storeFailed } from './admit-request.ts';
export { SLOW_DOWN } from './politeness.ts';
export { defaultLifetime } from './files/lifetimes.ts';
export { readNames } from './options.ts';
export { isPrivateAddress } from './net/addresses.ts';
export { httpUrl } from './net/location.ts';
