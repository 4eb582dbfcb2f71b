import type { ByteString } from '../text/bytes.ts';
import type { Precedence } from '../match/precedence.ts';
import type { ProfileName } from '../match/verdicts.ts';

export type { ProfileName } from '../match/verdicts.ts';

/** The groups of a file, as a profile chooses among them. */
export interface GroupsToChoose {
  readonly size: number;
  /** Match names of every user-agent line in file order: lower-cased, `*` for a global one. */
  readonly agentTokens: readonly string[];
  /** Group `g`'s lines are `agentTokens[agentStart[g], agentStart[g + 1])`; the last runs to the end. */
  readonly agentStart: readonly number[];
}

/** Match names of group `g`'s user-agent lines. */
export function tokensOf(groups: GroupsToChoose, g: number): readonly string[] {
  return groups.agentTokens.slice(groups.agentStart[g], groups.agentStart[g + 1]);
}

/** One of group `g`'s user-agent lines is `*`. */
export function isGlobalGroup(groups: GroupsToChoose, g: number): boolean {
  return tokensOf(groups, g).includes(GLOBAL_TOKEN);
}

/** Which groups apply to a crawler. */
export interface GroupChoice {
  scope: 'specific' | 'global' | 'none';
  groups: number[];
}

/**
 * One interpretation of robots.txt, whole: how records are delimited and named, how a
 * crawler's groups are chosen, how values and URLs are normalised, and how rules decide. The
 * tokenizer is shared; everything that differs between interpretations is here, one file per
 * profile, so that a profile can be read (and changed) in one place.
 */
export interface Profile {
  readonly name: ProfileName;

  // Reading the file.
  /** A blank line ends a record (1996 standard); otherwise only a user-agent after rules does. */
  readonly blankLineEndsGroup: boolean;
  /** Whether a user-agent value names every crawler. */
  isGlobalAgent(value: string): boolean;
  /** The lower-cased name a user-agent value (as text) is matched by. */
  agentToken(value: string): string;
  /**
   * `agentToken` is the value's product token (see `productToken`), lower-cased: where the
   * tokenizer measured the token already, it is taken as measured.
   */
  readonly productTokens: boolean;
  /** A rule that can never match, left out of selections (legacy: an empty Disallow). */
  isInertRule(allow: boolean, empty: boolean): boolean;
  /**
   * Another pattern an allow rule also matches as, on the same line (Google: `/d/index.html`
   * also allows `/d/`); undefined for none. Only called for patterns holding `/index.htm`.
   * An alias names a directory (it ends in `/$`), so it can only match a path ending in
   * `/`: a crawler's aliases are looked for when it first checks such a path.
   */
  aliasOf?(pattern: string): string | undefined;

  // Matching.
  /** Which groups apply to a crawler known by `names` (lower-cased). */
  chooseGroups(groups: GroupsToChoose, names: readonly string[]): GroupChoice;
  /**
   * A rule's value as written (its bytes, one character per byte) to the pattern that is
   * matched.
   */
  normalizePattern(value: ByteString): ByteString;
  /**
   * A value with no `%` or non-ASCII character is its own pattern (so a lookup can match it
   * where it stands in the text, without making the pattern).
   */
  readonly plainValuesArePatterns: boolean;
  /** `*` matches any run of characters and a final `$` the end of the path (else both are literal). */
  readonly wildcards: boolean;
  /** A URL to the string its path is matched as. */
  matchPath(url: string): string;
  /** A path allowed whatever the rules say (RFC 9309: `/robots.txt`). */
  isImplicitlyAllowed(path: string): boolean;
  readonly precedence: Precedence;
}

/** The token stored for a `*` agent (never a product token, never a legacy name). */
export const GLOBAL_TOKEN = '*';

/** The pattern has `*` or ends in `$`. */
export function hasWildcard(pattern: string): boolean {
  return pattern.indexOf('*') >= 0 || pattern.charCodeAt(pattern.length - 1) === 0x24;
}

/** Whether a pattern needs more than a prefix test under `profile` (`*`, a final `$`). */
export function isWildPattern(profile: Profile, pattern: string): boolean {
  return profile.wildcards && hasWildcard(pattern);
}

/**
 * RFC 9309 and Google: every group naming one of the crawler's names is chosen, merged;
 * else every `*` group; else none.
 */
export function chooseByName(groups: GroupsToChoose, names: readonly string[]): GroupChoice {
  // One pass over the names, as this runs on a crawler's first check of every file.
  const { size, agentTokens, agentStart } = groups;
  // Made when a group is found: most files have one or the other, many neither.
  let named: number[] | undefined;
  let global: number[] | undefined;
  // The usual call names one crawler: compared as it is, without a search of the list.
  const only = names.length === 1 ? names[0]! : undefined;
  for (let g = 0; g < size; g++) {
    const end = g + 1 < size ? agentStart[g + 1]! : agentTokens.length;
    let isNamed = false;
    let isGlobal = false;
    for (let a = agentStart[g]!; a < end; a++) {
      const token = agentTokens[a]!;
      if (token === GLOBAL_TOKEN) isGlobal = true;
      else if (only !== undefined ? token === only : names.includes(token)) isNamed = true;
    }
    // A literal of the first: an empty array's first push makes room for sixteen.
    if (isNamed) {
      if (named === undefined) named = [g];
      else named.push(g);
    } else if (isGlobal && named === undefined) {
      if (global === undefined) global = [g];
      else global.push(g);
    }
  }
  if (named !== undefined) return { scope: 'specific', groups: named };
  return global !== undefined ? { scope: 'global', groups: global } : { scope: 'none', groups: [] };
}
