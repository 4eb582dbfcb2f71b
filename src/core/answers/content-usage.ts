import type { Extra } from '../model/extras.ts';
import { isWildPattern, type Profile } from '../profiles/index.ts';
import {
  combineRules,
  noPreference,
  splitRule,
  type ContentUsage,
  type UsageRule,
} from '../match/content-usage.ts';
import { matchesPattern } from '../match/wildcard.ts';
import { longPathChars } from '../match/path-chars.ts';
import { utf8ByteString } from '../text/bytes.ts';

/**
 * The preference the `Content-Usage` lines among `extras` (a crawler's groups') state for
 * `path` (as the profile matches it): the rules with the longest path matching it, matched
 * like Allow and Disallow, a rule without a path applying to every path, combined per
 * category (any `n` disallows). Linear in the lines and the path, whatever they hold.
 */
export function statedUsage(
  profile: Profile,
  path: string,
  extras: readonly Extra[],
): ContentUsage {
  let longest = -1;
  let applied: UsageRule[] = [];
  // As for rules (RuleIndex): what a long path holds is learned once for every pattern, so
  // that a pattern needing a character it lacks fails at once; a pattern repeated is
  // matched once.
  const held = longPathChars(path);
  const known = new Map<string, boolean>();
  for (const extra of extras) {
    if (extra.key !== 'content-usage') continue;
    const rule = { line: extra.line, ...splitRule(extra.value) };
    // The path as a rule's would be: its bytes, normalised by the profile.
    const pattern = rule.path === '' ? '' : profile.normalizePattern(utf8ByteString(rule.path));
    // A pattern shorter than the longest match so far cannot change the answer.
    if (pattern.length < longest) continue;
    let matches = pattern === '' || known.get(pattern);
    if (matches === undefined) {
      matches = isWildPattern(profile, pattern)
        ? matchesPattern(pattern, path, held)
        : path.startsWith(pattern);
      known.set(pattern, matches);
    }
    if (!matches) continue;
    if (pattern.length > longest) applied = [];
    longest = pattern.length;
    applied.push(rule);
  }
  if (applied.length === 0) return noPreference(path, 'no-content-usage-rule');
  return { ...combineRules(applied), rules: applied, reason: 'stated', path };
}
