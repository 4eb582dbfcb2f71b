import { isAsciiSpace } from '../text/bytes.ts';
import { KNOWN_AGENTS } from './known.ts';

/**
 * The product token of a user-agent value: its leading run of `[A-Za-z_-]`, as Google
 * extracts it (`Googlebot/2.1` → `Googlebot`, `Foo Bar` → `Foo`). Use it to turn a full
 * HTTP User-Agent header into the name robots.txt groups are matched by.
 */
export function productToken(userAgent: string): string {
  let end = 0;
  while (end < userAgent.length) {
    const c = userAgent.charCodeAt(end);
    const isLetter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!isLetter && c !== 0x2d && c !== 0x5f) break;
    end++;
  }
  return userAgent.slice(0, end);
}

/**
 * ASCII letters lower-cased, every other character kept: Google compares crawler names
 * ASCII case-insensitively, so the Kelvin sign (U+212A) is not a `k`, as `toLowerCase()`
 * would make it.
 */
export function asciiLowerCase(text: string): string {
  let upper = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Beyond ASCII, only the ASCII letters may change: a regex replace of them alone.
    if (c > 0x7f) return text.replace(UPPER, lower);
    if (c >= 0x41 && c <= 0x5a) upper = true;
  }
  // ASCII text: the engine's own lower-casing is the same, and it makes one string.
  return upper ? text.toLowerCase() : text;
}

const UPPER = /[A-Z]+/g;
const lower = (run: string): string => run.toLowerCase();

/** Whether a name is one a crawler can be matched by: non-empty and all `[A-Za-z_-]`. */
export function isValidProductToken(name: string): boolean {
  return name.length > 0 && productToken(name) === name;
}

/**
 * Whether a `User-agent:` value names every crawler: `*`, or (Google) `*` followed by
 * whitespace and anything else.
 */
export function isGlobalAgent(value: string): boolean {
  // Reads stay within the value: a read past the end makes the engine drop its fast code.
  if (value.length === 0 || value.charCodeAt(0) !== 0x2a) return false;
  // The second character is read for every `*` value (`*` alone reads itself), so the read
  // is not first met, after the engine optimized its caller, on a rare `* foo`.
  const space = isAsciiSpace(value.charCodeAt(value.length > 1 ? 1 : 0));
  return value.length === 1 || space;
}

/** Products of a browser-style User-Agent header that never name a crawler. */
const GENERIC_PRODUCTS = new Set([
  'mozilla',
  'applewebkit',
  'khtml',
  'gecko',
  'chrome',
  'chromium',
  'safari',
  'version',
  'mobile',
  'firefox',
  'edg',
  'opr',
  'headlesschrome',
]);

let knownLower: Set<string> | undefined;
/** The known crawlers' names, lower-cased, made on first use. */
function knownNames(): Set<string> {
  return (knownLower ??= new Set(KNOWN_AGENTS.map((a) => a.name.toLowerCase())));
}

/** A `name/version` product inside a header: at its start, or after a space, `(` or `;`. */
const PRODUCT = /(?:^|[\s(;])([A-Za-z_-]+)\//g;

/** What `crawlerName` made of a name: the token to match by, and why it differs, if it does. */
export interface CrawlerName {
  /** The name robots.txt groups are matched by. */
  token: string;
  /** What was given. */
  given: string;
  /** Why `token` is not `given`; undefined when they are the same. */
  note?: string;
}

/**
 * The robots.txt name of a crawler from what a user gives: a product token as it is
 * (`Googlebot`); a product with its version, the token before it (`Googlebot/2.1` →
 * `Googlebot`); a whole User-Agent header, the crawler's product in it, a known crawler
 * first (`Mozilla/5.0 (compatible; Googlebot/2.1; +http://…)` → `Googlebot`). For tools that
 * take names from people; `RobotsTxt` itself compares the name as given, as Google does.
 */
export function crawlerName(given: string): CrawlerName {
  const text = given.trim();
  // `*` asks for what every crawler without a group of its own gets.
  if (isValidProductToken(text) || text === '*') return { token: text, given };
  const products: string[] = [];
  for (const match of text.matchAll(PRODUCT)) {
    if (!GENERIC_PRODUCTS.has(match[1]!.toLowerCase())) products.push(match[1]!);
  }
  const known = products.find((p) => knownNames().has(p.toLowerCase()));
  const header = text.includes(' ') || text.includes('(');
  const token = known ?? (header ? products[0] : undefined) ?? productToken(text);
  if (token === '') {
    return {
      token: text,
      given,
      note: `"${text}" holds no product token ([A-Za-z_-]): it matches no group`,
    };
  }
  return {
    token,
    given,
    note: header
      ? `the User-Agent header "${text}" is matched as its crawler's product token "${token}"`
      : `"${text}" is matched as its product token "${token}" (robots.txt names crawlers without versions)`,
  };
}

/**
 * Crawler names from one string as people give them: comma-separated names are ordered
 * fallbacks (`Googlebot-Image,Googlebot`), each read by `crawlerName`; a whole User-Agent
 * header (with `(`, which may hold commas) is one name. The one reading the CLI's --agent,
 * the fetch client's `agent`, the service's `agent` and the web tester share.
 */
export function crawlerNames(given: string): CrawlerName[] {
  const parts = given.includes('(') ? [] : given.split(',').filter((p) => p.trim() !== '');
  return (parts.length > 0 ? parts : [given]).map((name) => crawlerName(name));
}
