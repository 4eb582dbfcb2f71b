/**
 * Content-Usage rules (draft-ietf-aipref-attach) read with the vocabulary of
 * draft-ietf-aipref-vocab: what a site says its content may be used for, per path.
 */
import { parseDictionary } from './structured-fields.ts';

/** What a site says of a usage category: `unknown` when it says nothing that applies. */
export type UsagePreference = 'allowed' | 'disallowed' | 'unknown';

/** The usage categories of the vocabulary; other labels are ignored, as it requires. */
export const USAGE_LABELS = ['train-ai', 'search'] as const satisfies readonly UsageLabel[];
/** A usage category of the AIPREF vocabulary: AI training, and search. */
export type UsageLabel = 'train-ai' | 'search';

/** One `Content-Usage:` line of the groups that apply. */
export interface UsageRule {
  /** Its line (1-based). */
  readonly line: number;
  /** The path as written; empty when the rule has none (it applies to every path). */
  readonly path: string;
  /** The statement of preference as written (`train-ai=n, search=y`). */
  readonly statement: string;
}

/** What a robots.txt's Content-Usage rules say a URL's content may be used for, by `RobotsTxt.contentUsage`. */
export interface ContentUsage {
  /** Each usage category's preference for the URL. */
  readonly preferences: Record<UsageLabel, UsagePreference>;
  /** Per category, the rule that decided it (none when unknown). */
  readonly decidedBy: Partial<Record<UsageLabel, UsageRule>>;
  /** The rules that applied: those of the longest path that matches, combined. */
  readonly rules: readonly UsageRule[];
  /**
   * `stated`: rules applied; `disallowed-by-robots-txt`: the URL may not be crawled, so no
   * preference is implied; `no-content-usage-rule`: none matches the URL.
   */
  readonly reason: 'stated' | 'disallowed-by-robots-txt' | 'no-content-usage-rule';
  /** What the rule paths were matched against (as for Allow and Disallow). */
  readonly path: string;
}

/**
 * A rule's value: a path (starting with `/`, ending before the first SP or HTAB), then the
 * statement; a value not starting with `/` is all statement.
 */
export function splitRule(value: string): { path: string; statement: string } {
  if (!value.startsWith('/')) return { path: '', statement: value.trim() };
  let end = 0;
  while (end < value.length && value[end] !== ' ' && value[end] !== '\t') end++;
  return { path: value.slice(0, end), statement: value.slice(end).trim() };
}

/**
 * The preferences one statement gives (vocab §7): parsed as an RFC 9651 Dictionary, a
 * category is allowed for the Token `y`, disallowed for `n`, else unknown; a statement that
 * does not parse (an upper-case key...) makes every category unknown.
 */
export function statementPreferences(statement: string): Record<UsageLabel, UsagePreference> {
  const members = parseDictionary(statement);
  const preferences = {} as Record<UsageLabel, UsagePreference>;
  for (const label of USAGE_LABELS) {
    const item = members?.get(label);
    preferences[label] =
      item?.type === 'token' && item.value === 'y'
        ? 'allowed'
        : item?.type === 'token' && item.value === 'n'
          ? 'disallowed'
          : 'unknown';
  }
  return preferences;
}

/**
 * Rules of one path combined per category (vocab §5.1): any `n` disallows, else any `y`
 * allows, else unknown; the rule that decided each category is kept.
 */
export function combineRules(
  rules: readonly UsageRule[],
): Pick<ContentUsage, 'preferences' | 'decidedBy'> {
  const preferences = { 'train-ai': 'unknown', search: 'unknown' } as Record<
    UsageLabel,
    UsagePreference
  >;
  const decidedBy: Partial<Record<UsageLabel, UsageRule>> = {};
  for (const rule of rules) {
    const stated = statementPreferences(rule.statement);
    for (const label of USAGE_LABELS) {
      const now = preferences[label];
      const said = stated[label];
      if (said === 'disallowed' && now !== 'disallowed') {
        preferences[label] = 'disallowed';
        decidedBy[label] = rule;
      } else if (said === 'allowed' && now === 'unknown') {
        preferences[label] = 'allowed';
        decidedBy[label] = rule;
      }
    }
  }
  return { preferences, decidedBy };
}

/** No preference for any category, and why. */
export function noPreference(path: string, reason: ContentUsage['reason']): ContentUsage {
  return {
    preferences: { 'train-ai': 'unknown', search: 'unknown' },
    decidedBy: {},
    rules: [],
    reason,
    path,
  };
}
