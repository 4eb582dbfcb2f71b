import { asciiLowerCase, isGlobalAgent } from '../agents/names.ts';
import { utf8ByteString } from '../text/bytes.ts';
import { legacyDecode } from '../match/pattern.ts';
import { FIRST_MATCH } from '../match/precedence.ts';
import { pathParamsQuery } from '../match/url.ts';
import {
  GLOBAL_TOKEN,
  isGlobalGroup,
  tokensOf,
  type GroupChoice,
  type Profile,
} from './profile.ts';

/**
 * The 1996 standard (draft-koster-robots and the 1994 convention): a blank line ends a
 * record; the first record whose name is a substring of the robot's name applies, else the
 * first `*` record; the first matching rule in file order decides; `*` and `$` are literal;
 * `%XX` is decoded on both sides except `%2F`; an empty Disallow excludes nothing;
 * `/robots.txt` (with any query) is always allowed.
 */
export const legacy: Profile = {
  name: 'legacy',
  blankLineEndsGroup: true,
  isGlobalAgent,
  // The whole value, as text (so a name like `Jävla-Foobot` matches whether the file came
  // as text or as bytes), ASCII letters folded as the crawler's names are.
  agentToken: asciiLowerCase,
  productTokens: false,
  isInertRule: (allow, empty) => !allow && empty,
  chooseGroups(groups, names): GroupChoice {
    for (let g = 0; g < groups.size; g++) {
      const named = tokensOf(groups, g).some(
        (t) => t !== GLOBAL_TOKEN && t.length > 0 && names.some((n) => n.includes(t)),
      );
      if (named) return { scope: 'specific', groups: [g] };
    }
    for (let g = 0; g < groups.size; g++) {
      if (isGlobalGroup(groups, g)) return { scope: 'global', groups: [g] };
    }
    return { scope: 'none', groups: [] };
  },
  normalizePattern: legacyDecode,
  plainValuesArePatterns: true,
  wildcards: false,
  matchPath: (url) => legacyDecode(utf8ByteString(pathParamsQuery(url))),
  isImplicitlyAllowed: (path) => path === '/robots.txt' || path.startsWith('/robots.txt?'),
  precedence: FIRST_MATCH,
};
