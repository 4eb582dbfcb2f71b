import type { RobotsTxt } from '../../src/core/index.ts';

/** Everything a parse exposes, for comparing two parses of one file. */
export function snapshot(robots: RobotsTxt): unknown {
  return {
    groups: robots.groups,
    sitemaps: robots.sitemaps,
    extras: robots.extras,
    lineCount: robots.lineCount,
    bytes: robots.bytes,
    cutLine: robots.cutLine,
    orphans: robots.orphanRuleLines,
  };
}
