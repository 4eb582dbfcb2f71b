import type { KnownAgent } from '../../core/agents-entry.ts';
import type { RobotsTxt } from '../../core/index.ts';

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
 * A known crawler's access from its verdict (made for its name alone, by the fetch layer) and
 * the file it was made from. That verdict already answers for Google's special-case crawlers
 * (`ignores-global-group`: allowed, no deciding line, no group applied).
 */
export function crawlerAccess(
  known: KnownAgent,
  robots: RobotsTxt | undefined,
  verdict: { allowed: boolean; line: number; reason: string },
): CrawlerAccess {
  const { allowed, line, reason } = verdict;
  if (reason === 'ignores-global-group') {
    return { allowed, line, reason, group: 'none', ignoresStar: true };
  }
  const scope = robots?.groupsFor(known.name).scope ?? 'none';
  const group = scope === 'specific' ? 'own' : scope === 'global' ? '*' : 'none';
  return { allowed, line, reason, group, ignoresStar: false };
}
