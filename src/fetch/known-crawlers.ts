import type { KnownAgent } from '../core/agents-entry.ts';
import type { RobotsTxt } from '../core/index.ts';

/** What a well-known crawler may do at a path, as `repkit agents` and MCP's `ai_crawlers` say it. */
export interface CrawlerAccess {
  allowed: boolean;
  line: number;
  /** The verdict's reason, or `ignores-global-group` (see `crawlerAccess`). */
  reason: string;
  /** Whose rules decided: the crawler's own group, the `*` group, or none. */
  group: 'own' | '*' | 'none';
  /** A Google special-case crawler that only the `*` group would have named: no rule applies. */
  ignoresStar: boolean;
}

/**
 * A known crawler's access from its verdict (made for its name alone) and the file it was made
 * from: Google's special-case crawlers (`ignoresGlobalGroup`) take no rule from the `*` group,
 * so where only `*` names them they are allowed with no deciding line.
 */
export function crawlerAccess(
  known: KnownAgent,
  robots: RobotsTxt | undefined,
  verdict: { allowed: boolean; line: number; reason: string },
): CrawlerAccess {
  const scope = robots?.groupsFor(known.name).scope ?? 'none';
  if (known.ignoresGlobalGroup === true && scope === 'global') {
    return {
      allowed: true,
      line: 0,
      reason: 'ignores-global-group',
      group: 'none',
      ignoresStar: true,
    };
  }
  const group = scope === 'specific' ? 'own' : scope === 'global' ? '*' : 'none';
  const { allowed, line, reason } = verdict;
  return { allowed, line, reason, group, ignoresStar: false };
}
