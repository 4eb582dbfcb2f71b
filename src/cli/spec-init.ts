/**
 * `repkit test --init`: a starter spec that pins what a robots.txt does today, for each
 * crawler it names (and `*`): `/` and paths taken from the rules of the groups that apply to
 * it, each put under allow or disallow as the file answers them now.
 */
import { isValidProductToken, productToken } from '../core/index.ts';
import { verdictFrom, type LoadedRobots } from './robots-source.ts';

/** Paths pinned per crawler, at most: a starter, not an inventory. */
const PER_AGENT = 8;

export interface InitialSpec {
  robots: string;
  expect: { agent: string; allow?: string[]; disallow?: string[] }[];
}

export function initialSpec(loaded: LoadedRobots, robots: string): InitialSpec {
  const agents: string[] = [];
  for (const group of loaded.robots.groups) {
    for (const value of group.agents) {
      const name = group.global ? '*' : productToken(value);
      if ((name === '*' || isValidProductToken(name)) && !agents.includes(name)) agents.push(name);
    }
  }
  if (!agents.includes('*')) agents.push('*');
  const expect = agents.map((agent) => {
    // `*` asks for any crawler without a group: a name no group has.
    const names = agent === '*' ? [] : [agent];
    const allow: string[] = [];
    const disallow: string[] = [];
    for (const path of pathsFor(loaded, agent)) {
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

/** `/` and, for each rule of the groups that apply to `agent`, its path and one below it. */
function pathsFor(loaded: LoadedRobots, agent: string): string[] {
  const paths = new Set(['/']);
  const { groups } = loaded.robots.groupsFor(agent === '*' ? '' : agent);
  for (const group of groups) {
    for (const { value } of group.rules) {
      if (value === '' || paths.size >= PER_AGENT) continue;
      const plain = value.replaceAll('*', 'x').replace(/\$$/, '');
      const path = plain.startsWith('/') ? plain : `/${plain}`;
      // The rule's path and one below it: a rule and its prefix's other paths.
      paths.add(path);
      if (paths.size < PER_AGENT) paths.add(`${path}x`);
    }
  }
  return [...paths];
}
