import { KNOWN_AGENTS } from '../agents/known.ts';
import type { RobotsTxt } from './robots-txt.ts';

/** Google's special-case crawlers, by name in lower case (see `ignoresGlobalGroup`). */
const IGNORE_GLOBAL_GROUP = new Set(
  KNOWN_AGENTS.filter((known) => known.ignoresGlobalGroup).map((known) => known.name.toLowerCase()),
);
/**
 * Their names' lengths: every verdict asks, so a name of another length (nearly all) is
 * answered without lowering its case.
 */
const LENGTHS = new Set([...IGNORE_GLOBAL_GROUP].map((name) => name.length));

/**
 * Whether the crawler `agents` name (the first is its own name; the rest are fallbacks) is one
 * of Google's special-case crawlers (AdsBot-Google, Mediapartners-Google...) that only the
 * file's `*` group names: such a crawler takes no rule from that group (Google's crawler
 * documentation), so nothing restricts it. The matcher itself reads files as Google's
 * open-source one does, which knows no crawler; the answers for a crawler apply this.
 */
export function ignoresGlobalGroup(robots: RobotsTxt, agents: string | readonly string[]): boolean {
  const names = typeof agents === 'string' ? [agents] : agents;
  const first = names[0];
  if (first === undefined || !LENGTHS.has(first.length)) return false;
  if (!IGNORE_GLOBAL_GROUP.has(first.toLowerCase())) return false;
  return names.every((agent) => robots.groupsFor(agent).scope === 'global');
}
