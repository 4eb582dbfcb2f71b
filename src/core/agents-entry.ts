/**
 * `repkit/agents`: the crawlers repkit knows (Google's and the ai.robots.txt list).
 *
 * @module repkit/agents
 */
export { KNOWN_AGENTS, type KnownAgent } from './agents/known.ts';
