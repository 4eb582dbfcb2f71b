/**
 * Heads-ups in the manner of Google Search Console: lines that are valid and read as
 * written, but that site owners rarely mean (the whole site blocked, pages' CSS and
 * JavaScript blocked, a space in a path), and a file that says nothing.
 */
import type { ParsedFile } from '../model/groups.ts';
import type { Add } from './types.ts';

/** The crawlers whose blocked resources Google's rendering meets: `*` and Googlebot. */
const RENDERED_FOR = new Set(['*', 'googlebot']);

/** A rule value that blocks style sheets or scripts (`/*.css$`, `/assets/*.js`, `/app.js`). */
function blocksResources(value: string): 'CSS' | 'JavaScript' | undefined {
  const plain = value.endsWith('$') ? value.slice(0, -1) : value;
  if (plain.endsWith('.css') || plain.includes('.css?')) return 'CSS';
  if (plain.endsWith('.js') || plain.includes('.js?')) return 'JavaScript';
  return undefined;
}

export function checkHeadsUps(parsed: ParsedFile, add: Add): void {
  const { groups, rules } = parsed;
  for (let g = 0; g < groups.size; g++) {
    const [agentFirst, agentEnd] = groups.agentRange(g);
    const tokens = groups.agentTokens.slice(agentFirst, agentEnd);
    const everyone = tokens.includes('*');
    const rendered = tokens.filter((t) => RENDERED_FOR.has(t));
    const [first, end] = groups.ruleRange(g, rules.size);
    for (let id = first; id < end; id++) {
      if (rules.isAllow(id)) continue;
      const value = rules.value(id);
      const line = rules.line(id);
      if (everyone && (value === '/' || value === '/*')) {
        add(
          'disallow-all',
          line,
          1,
          `"Disallow: ${value}" for *: every crawler without a group of its own may fetch nothing on this site (search engines then list its pages without content, or drop them)`,
        );
      }
      const kind = rendered.length > 0 ? blocksResources(value) : undefined;
      if (kind) {
        add(
          'blocked-resources',
          line,
          1,
          `blocks ${kind} for ${rendered.join(', ')}: Google renders pages with their ${kind}, and a page it cannot render may be misread`,
        );
      }
    }
  }
}

/** A space or tab inside a rule's path (Google keeps it; URLs send `%20`, never a space). */
export function spaceInPath(value: string): number {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x20 || c === 0x09) return i;
  }
  return -1;
}
