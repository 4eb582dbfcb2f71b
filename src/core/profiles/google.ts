import { isGlobalAgent, productToken } from '../agents/names.ts';
import { isAscii } from '../text/bytes.ts';
import { googleEscape } from '../match/pattern.ts';
import { LONGEST_MATCH } from '../match/precedence.ts';
import { pathParamsQuery } from '../match/url.ts';
import { chooseByName, type Profile } from './profile.ts';

/**
 * Google's interpretation, as google/robotstxt implements it: the default. Where it departs
 * from RFC 9309, the departure is Google's and is kept on purpose:
 * - `User-agent: * foo` is the `*` group (the RFC's ABNF says `"*"` alone);
 * - `Allow: /d/index.html` also allows `/d/` exactly;
 * - `/robots.txt` is matched like any URL, and URLs are matched as given (%-encoded by the
 *   caller), rules with non-ASCII octets %-encoded and escapes upper-cased.
 */
export const google: Profile = {
  name: 'google',
  blankLineEndsGroup: false,
  isGlobalAgent,
  agentToken: (value) => productToken(value).toLowerCase(),
  productTokens: true,
  isInertRule: () => false,
  aliasOf(pattern) {
    const slash = pattern.lastIndexOf('/');
    if (slash < 0 || !pattern.startsWith('/index.htm', slash)) return undefined;
    return pattern.slice(0, slash + 1) + '$';
  },
  chooseGroups: chooseByName,
  normalizePattern(value) {
    // Only %-escapes and non-ASCII octets are rewritten: most values stay as they are.
    if (value.indexOf('%') < 0 && isAscii(value)) return value;
    return googleEscape(value);
  },
  plainValuesArePatterns: true,
  wildcards: true,
  matchPath: pathParamsQuery,
  isImplicitlyAllowed: () => false,
  precedence: LONGEST_MATCH,
};
