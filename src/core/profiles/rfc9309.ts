import { productToken } from '../agents/names.ts';
import { utf8ByteString } from '../text/bytes.ts';
import { rfc9309Normalize } from '../match/pattern.ts';
import { LONGEST_MATCH } from '../match/precedence.ts';
import { pathParamsQuery } from '../match/url.ts';
import { chooseByName, GLOBAL_TOKEN, type Profile } from './profile.ts';

/**
 * RFC 9309 as written, where it is stricter than Google:
 * - only `User-agent: *` is the `*` group (`* foo` names no crawler: its product token is empty);
 * - both sides %-encoded the same way before comparison (§2.2.2): non-ASCII octets and
 *   reserved characters encoded (but `/` in the path, and `?`, `=` and `&` delimiting the
 *   query), unreserved escapes decoded, so `?u=http://a` and `?u=http%3A%2F%2Fa` match;
 * - `/robots.txt` itself (no query) is implicitly allowed; no index.html alias.
 */
export const rfc9309: Profile = {
  name: 'rfc9309',
  blankLineEndsGroup: false,
  isGlobalAgent: (value) => value === GLOBAL_TOKEN,
  agentToken: (value) => productToken(value).toLowerCase(),
  productTokens: true,
  isInertRule: () => false,
  chooseGroups: chooseByName,
  normalizePattern: (value) => rfc9309Normalize(value, true),
  plainValuesArePatterns: false,
  wildcards: true,
  matchPath: (url) => rfc9309Normalize(utf8ByteString(pathParamsQuery(url)), false),
  isImplicitlyAllowed: (path) => path === '/robots.txt',
  precedence: LONGEST_MATCH,
};
