/**
 * An independent oracle for tests: Google's RobotsMatcher state machine (flags, per-line
 * priorities, the pos-set wildcard matcher) replayed over the tokenizer's events, one URL at
 * a time, the way robots.cc evaluates a file.
 */
import { googleEscape } from '../../src/core/match/pattern.ts';
import { pathParamsQuery } from '../../src/core/match/url.ts';
import { tokenizeBody } from '../../src/core/tokenizer-entry.ts';

/** Google's Matches(): the set of path positions reachable by the pattern so far. */
export function posSetMatches(path: string, pattern: string): boolean {
  let positions = [0];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '$' && i === pattern.length - 1) return positions.at(-1) === path.length;
    if (ch === '*') {
      const from = positions[0]!;
      positions = [];
      for (let p = from; p <= path.length; p++) positions.push(p);
    } else {
      positions = positions.filter((p) => p < path.length && path[p] === ch).map((p) => p + 1);
      if (positions.length === 0) return false;
    }
  }
  return true;
}

interface Slot {
  priority: number;
  line: number;
}

export function googleOracle(
  body: string | Uint8Array,
  agent: string,
  url: string,
): { allowed: boolean; line: number } {
  const path = pathParamsQuery(url);
  const none = (): Slot => ({ priority: -1, line: 0 });
  const allow = { specific: none(), global: none() };
  const disallow = { specific: none(), global: none() };
  let seenGlobal = false;
  let seenSpecific = false;
  let everSpecific = false;
  let seenSeparator = false;
  const record = (slots: typeof allow, pattern: string, line: number): boolean => {
    if (!posSetMatches(path, pattern)) return false;
    const slot = seenSpecific ? slots.specific : slots.global;
    if (slot.priority < pattern.length) {
      slot.priority = pattern.length;
      slot.line = line;
    }
    return true;
  };
  tokenizeBody(body, {
    directive(d) {
      const value =
        d.kind === 'user-agent' || d.kind === 'sitemap' ? d.value : googleEscape(d.value);
      if (d.kind === 'user-agent') {
        if (seenSeparator) seenSpecific = seenGlobal = seenSeparator = false;
        // C isspace() in the C locale: ASCII whitespace only (not NBSP).
        if (/^\*([ \t\n\v\f\r]|$)/.test(value)) seenGlobal = true;
        else if (/^[A-Za-z_-]*/.exec(value)![0].toLowerCase() === agent.toLowerCase()) {
          seenSpecific = everSpecific = true;
        }
      } else if (d.kind === 'allow' || d.kind === 'disallow') {
        if (!seenGlobal && !seenSpecific) return;
        seenSeparator = true;
        if (d.kind === 'disallow') {
          record(disallow, value, d.line);
        } else if (!record(allow, value, d.line)) {
          const slash = value.lastIndexOf('/');
          if (slash >= 0 && value.startsWith('/index.htm', slash)) {
            record(allow, value.slice(0, slash + 1) + '$', d.line);
          }
        }
      }
    },
  });
  const a = everSpecific ? allow.specific : allow.global;
  const dis = everSpecific ? disallow.specific : disallow.global;
  let disallowed = false;
  if (allow.specific.priority > 0 || disallow.specific.priority > 0) {
    disallowed = disallow.specific.priority > allow.specific.priority;
  } else if (!everSpecific && (disallow.global.priority > 0 || allow.global.priority > 0)) {
    disallowed = disallow.global.priority > allow.global.priority;
  }
  return { allowed: !disallowed, line: dis.priority > a.priority ? dis.line : a.line };
}
