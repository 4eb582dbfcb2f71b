/**
 * `repkit test --init`: a starter spec that pins what a robots.txt does today, for each
 * crawler it names (and `*`, as `diff` names them): `/` and the probes of the rules of the
 * groups that apply to it (as `diff` makes them), each put under allow or disallow as the
 * file answers them now.
 */
import { probesByAgent } from '../fetch/internal.ts';
import { verdictFrom, type LoadedRobots } from './robots-source.ts';

/** Paths pinned per crawler, at most: a starter, not an inventory. */
const PER_AGENT = 8;

export interface InitialSpec {
  robots: string;
  expect: { agent: string; allow?: string[]; disallow?: string[] }[];
}

export function initialSpec(loaded: LoadedRobots, robots: string): InitialSpec {
  const expect = probesByAgent(loaded.robots, PER_AGENT).map(({ agent, names, paths }) => {
    const allow: string[] = [];
    const disallow: string[] = [];
    for (const path of paths) {
      (verdictFrom(loaded, path, names).allowed ? allow : disallow).push(path);
    }
    return {
      agent,
      ...(allow.length > 0 ? { allow } : {}),
      ...(disallow.length > 0 ? { disallow } : {}),
    };
  });
  return { robots, expect };
}
