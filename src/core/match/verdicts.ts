/** Which interpretation of robots.txt to apply (see `src/core/profiles/`). */
export type ProfileName = 'google' | 'rfc9309' | 'legacy';

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
  /** May the crawler fetch the URL. */
  readonly allowed: boolean;
  /** The deciding line (1-based); 0 when no rule matched. */
  readonly line: number;
  /** Why. */
  readonly reason: VerdictReason;
  /** The deciding rule, when asked for (`verdict(url, agent, { withRule: true })`). */
  readonly rule?: RuleMatch;
}

/** A rule that matched the URL, with its match length. */
export interface RuleMatch {
  /** An `Allow:` or a `Disallow:` rule. */
  readonly kind: 'allow' | 'disallow';
  /** Its line (1-based). */
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
  /** May the crawler fetch the URL. */
  readonly allowed: boolean;
  /**
   * The deciding line, 1-based, as Google's `matching_line()` reports it; 0 when no rule
   * matched. (Like Google, an empty `Disallow:` that matched can be named here although it
   * never disallows anything; `reason` then says `no-matching-rule`.)
   */
  readonly line: number;
  /** Why. */
  readonly reason: VerdictReason;
  /** The rule on `line`, if any. */
  readonly rule?: RuleMatch;
  /** The groups whose rules applied, merged, or undefined when none did. */
  readonly group?: {
    /** `specific`: groups naming the crawler; `global`: the `*` groups. */
    readonly scope: 'specific' | 'global';
    /** Their user-agent names, as written. */
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
  /**
   * Names given that are not product tokens (`Googlebot/2.1`, a whole User-Agent header):
   * they were compared as given, as Google compares them, so they may match no group; `meant`
   * is the token they probably stand for.
   */
  readonly agentNotes?: readonly AgentNote[];
  /**
   * Rules of the `*` group that match the path too, but do not apply: the crawler has a
   * group of its own, and then ignores `*` entirely (the most common robots.txt trap).
   */
  readonly ignoredGlobalRules?: readonly RuleMatch[];
  /** The interpretation applied. */
  readonly profile: ProfileName;
}

/** A crawler name that is not a product token, and what it probably meant. */
export interface AgentNote {
  /** The name as given (`Googlebot/2.1`). */
  readonly agent: string;
  /** The product token it probably stands for (`Googlebot`). */
  readonly meant: string;
  /** The note, in words. */
  readonly message: string;
}
