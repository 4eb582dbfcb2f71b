import type { ProfileName } from './profiles.ts';
import type { BestMatch, RuleIndex } from './rule-index.ts';

/** One crawler name, or several that act as one crawler (any of them selects a group). */
export type UserAgent = string | readonly string[];

/** Why a URL got its verdict. */
export type VerdictReason =
  | 'allowed-by-rule'
  | 'disallowed-by-rule'
  | 'no-matching-rule'
  | 'no-matching-group'
  | 'robots-txt-always-allowed';

/** The verdict, its deciding line and why, as `explain()` gives them, without the details. */
export interface Verdict {
  readonly allowed: boolean;
  readonly line: number;
  readonly reason: VerdictReason;
}

/** A rule that matched the URL, with its match length. */
export interface RuleMatch {
  readonly kind: 'allow' | 'disallow';
  readonly line: number;
  /** The value as written. */
  readonly value: string;
  /** What was matched (after normalisation). */
  readonly pattern: string;
  /** Octets of `pattern`: the rule's weight in longest-match precedence. */
  readonly length: number;
  /** For Google's `index.html` alias, the pattern the alias was derived from. */
  readonly aliasOf?: string;
}

/** The full answer to "may this agent fetch this URL", and why. */
export interface Explanation {
  readonly allowed: boolean;
  /**
   * The deciding line, 1-based, as Google's `matching_line()` reports it; 0 when no rule
   * matched. (Like Google, an empty `Disallow:` that matched can be named here although it
   * never disallows anything; `reason` then says `no-matching-rule`.)
   */
  readonly line: number;
  readonly reason: VerdictReason;
  /** The rule on `line`, if any. */
  readonly rule?: RuleMatch;
  /** The groups whose rules applied, merged, or undefined when none did. */
  readonly group?: {
    readonly scope: 'specific' | 'global';
    readonly agents: readonly string[];
    /** Line of the first user-agent line of each merged group. */
    readonly lines: readonly number[];
  };
  /** An allow and a disallow rule matched with the same length, and the allow won. */
  readonly tieBreak: boolean;
  /** Every rule of the applicable groups that matched, in file order. */
  readonly matches: readonly RuleMatch[];
  /** The string the rules were matched against. */
  readonly path: string;
  readonly profile: ProfileName;
}

/** A verdict as positions in an index: who decided (-1 for no rule), and why. */
export interface Decision {
  allowed: boolean;
  deciding: number;
  reason: VerdictReason;
  tieBreak: boolean;
}

/**
 * Google's decision from the best allow and disallow matches (RobotsMatcher::disallow() and
 * matching_line()): a disallow wins only when strictly longer and non-empty; the deciding
 * line is the longer match's, the allow's on ties.
 */
export function longestMatchDecision(index: RuleIndex, best: BestMatch): Decision {
  const allowPriority = index.priorityAt(best.allow);
  const disallowPriority = index.priorityAt(best.disallow);
  const allowed = !(disallowPriority > allowPriority && disallowPriority > 0);
  const decided = Math.max(allowPriority, disallowPriority) > 0;
  return {
    allowed,
    deciding: disallowPriority > allowPriority ? best.disallow : best.allow,
    reason: !decided ? 'no-matching-rule' : allowed ? 'allowed-by-rule' : 'disallowed-by-rule',
    tieBreak: allowPriority > 0 && allowPriority === disallowPriority,
  };
}

/** The 1996 standard: the first matching rule in file order decides. */
export function firstMatchDecision(index: RuleIndex, first: number): Decision {
  if (first < 0)
    return { allowed: true, deciding: -1, reason: 'no-matching-rule', tieBreak: false };
  const allowed = index.isAllowAt(first);
  return {
    allowed,
    deciding: first,
    reason: allowed ? 'allowed-by-rule' : 'disallowed-by-rule',
    tieBreak: false,
  };
}
