import type { BestMatch, MatchIndex } from './rule-index.ts';
import type { VerdictReason } from './verdicts.ts';

/** A verdict as positions in an index: who decided (-1 for no rule), and why. */
export interface Decision {
  allowed: boolean;
  deciding: number;
  reason: VerdictReason;
  tieBreak: boolean;
}

/**
 * How the matching rules of a selection decide, as google/robotstxt's RobotsMatchStrategy:
 * `decide` for a verdict alone, `decideAmong` for an explanation that has every match.
 */
export interface Precedence {
  decide(index: MatchIndex, path: string, scratch: BestMatch): Decision;
  /** `decide(...).allowed`, without the decision's object (a crawler's usual question). */
  allows(index: MatchIndex, path: string, scratch: BestMatch): boolean;
  /** `matched`: positions of every matching rule, in file order. */
  decideAmong(index: MatchIndex, matched: readonly number[]): Decision;
}

/**
 * Google's and RFC 9309's precedence (RobotsMatcher::disallow() and matching_line()): the
 * longest allow and disallow matches are kept; a disallow wins only when strictly longer and
 * non-empty; the deciding line is the longer match's, the allow's on ties.
 */
export const LONGEST_MATCH: Precedence = {
  decide: (index, path, scratch) => fromBest(index, index.best(path, scratch)),
  allows(index, path, scratch) {
    const best = index.best(path, scratch);
    return allowedBy(index.priorityAt(best.allow), index.priorityAt(best.disallow));
  },
  decideAmong(index, matched) {
    const best: BestMatch = { allow: -1, disallow: -1 };
    for (const k of matched) index.consider(best, k);
    return fromBest(index, best);
  },
};

/** A disallow wins only when strictly longer than the longest allow, and not empty. */
function allowedBy(allowPriority: number, disallowPriority: number): boolean {
  return !(disallowPriority > allowPriority && disallowPriority > 0);
}

function fromBest(index: MatchIndex, best: BestMatch): Decision {
  const allowPriority = index.priorityAt(best.allow);
  const disallowPriority = index.priorityAt(best.disallow);
  const allowed = allowedBy(allowPriority, disallowPriority);
  const decided = Math.max(allowPriority, disallowPriority) > 0;
  return {
    allowed,
    deciding: disallowPriority > allowPriority ? best.disallow : best.allow,
    reason: !decided ? 'no-matching-rule' : allowed ? 'allowed-by-rule' : 'disallowed-by-rule',
    tieBreak: allowPriority > 0 && allowPriority === disallowPriority,
  };
}

/** The 1996 standard: the first matching rule in file order decides. */
export const FIRST_MATCH: Precedence = {
  decide(index, path) {
    let first = -1;
    index.forEachMatch(path, (k) => {
      if (first < 0 || index.lineAt(k) < index.lineAt(first)) first = k;
    });
    return fromFirst(index, first);
  },
  allows(index, path, scratch) {
    return this.decide(index, path, scratch).allowed;
  },
  decideAmong: (index, matched) => fromFirst(index, matched.length > 0 ? matched[0]! : -1),
};

function fromFirst(index: MatchIndex, first: number): Decision {
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
