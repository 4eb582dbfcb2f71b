import { utf8ByteString, type ByteString } from './bytes.ts';
import { googleEscape, legacyDecode, rfc9309Normalize } from './pattern.ts';
import { pathParamsQuery } from './url.ts';

/** Which interpretation of robots.txt to apply. */
export type ProfileName = 'google' | 'rfc9309' | 'legacy';

/**
 * Everything that differs between interpretations, as data. The tokenizer is shared; the
 * profiles only differ in how groups are delimited and chosen, and how rules are matched.
 */
export interface Profile {
  readonly name: ProfileName;
  /** A blank line ends a record (1996 standard); otherwise only a user-agent after rules does. */
  readonly blankLineEndsGroup: boolean;
  /** How a group is chosen for a crawler name. */
  readonly agentMatch: 'product-token' | 'substring';
  /** `longest`: longest pattern wins, allow on ties; `first`: first matching rule in the file. */
  readonly precedence: 'longest' | 'first';
  /** `*` anywhere and `$` at the end are special. */
  readonly wildcards: boolean;
  /** Google: `Allow: /dir/index.htm(l)` also allows `/dir/` (as `/dir/$`). */
  readonly indexHtmlAlias: boolean;
  /** `/robots.txt` itself is always allowed. */
  readonly robotsTxtAlwaysAllowed: boolean;
  /**
   * A rule's value as written to the pattern that is matched. `unicode`: the value is text
   * whose non-ASCII characters stand for their UTF-8 bytes (else it is a byte string).
   */
  normalizePattern(value: string, unicode: boolean): ByteString;
  /** A URL to the string its path is matched as. */
  matchPath(url: string): string;
}

export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  google: {
    name: 'google',
    blankLineEndsGroup: false,
    agentMatch: 'product-token',
    precedence: 'longest',
    wildcards: true,
    indexHtmlAlias: true,
    robotsTxtAlwaysAllowed: false,
    normalizePattern: (value, unicode) => googleEscape(unicode ? utf8ByteString(value) : value),
    // Google matches the URL as given: the caller is expected to pass it %-encoded.
    matchPath: pathParamsQuery,
  },
  rfc9309: {
    name: 'rfc9309',
    blankLineEndsGroup: false,
    agentMatch: 'product-token',
    precedence: 'longest',
    wildcards: true,
    indexHtmlAlias: false,
    robotsTxtAlwaysAllowed: true,
    normalizePattern: (value, unicode) =>
      rfc9309Normalize(unicode ? utf8ByteString(value) : value, true),
    matchPath: (url) => rfc9309Normalize(utf8ByteString(pathParamsQuery(url)), false),
  },
  legacy: {
    name: 'legacy',
    blankLineEndsGroup: true,
    agentMatch: 'substring',
    precedence: 'first',
    wildcards: false,
    indexHtmlAlias: false,
    robotsTxtAlwaysAllowed: true,
    normalizePattern: (value, unicode) => legacyDecode(unicode ? utf8ByteString(value) : value),
    matchPath: (url) => legacyDecode(utf8ByteString(pathParamsQuery(url))),
  },
};

/** Whether a matched path is the robots.txt file itself (query ignored). */
export function isRobotsTxtPath(path: string): boolean {
  return path === '/robots.txt' || path.startsWith('/robots.txt?');
}
