/**
 * Google's key recognition (ParsedRobotsKey::Parse): which directive a key names, the typos
 * Google accepts included, compared case-insensitively as prefixes, without slicing the key
 * out of the text.
 */
import type { DirectiveKind, KnownKind } from './kinds.ts';

/** Every key Google knows (typos included) begins with u, a, d or s, in either case. */
export function mayBeginKnownKey(code: number): boolean {
  const first = code | 0x20;
  return first === 0x75 || first === 0x61 || first === 0x64 || first === 0x73;
}

export interface KnownKey {
  readonly name: string;
  readonly kind: KnownKind;
}
const DISALLOW_KEY: KnownKey = { name: 'disallow', kind: 'disallow' };
const ALLOW_KEY: KnownKey = { name: 'allow', kind: 'allow' };
const USER_AGENT_KEY: KnownKey = { name: 'user-agent', kind: 'user-agent' };
const SITEMAP_KEY: KnownKey = { name: 'sitemap', kind: 'sitemap' };

/** The key Google knows that `text[s, e)` spells out in full, the colon right after it. */
export function knownKeyAt(text: string, s: number, e: number): KnownKey | undefined {
  // One small function per key: this runs for nearly every line, and small functions are
  // the ones the engine inlines.
  switch (text.charCodeAt(s) | 0x20) {
    case 0x64:
      return isDisallowAt(text, s, e) ? DISALLOW_KEY : undefined;
    case 0x61:
      return isAllowAt(text, s, e) ? ALLOW_KEY : undefined;
    case 0x75:
      return isUserAgentAt(text, s, e) ? USER_AGENT_KEY : undefined;
    case 0x73:
      return isSitemapAt(text, s, e) ? SITEMAP_KEY : undefined;
    default:
      return undefined;
  }
}

// Each spelling is compared whole, letter by letter, with no early exit: every comparison
// then runs whenever the first does, and the engine has seen them all when it optimizes the
// tokenizer. With `&&` a line that failed early (`Disallow /x`, `display:`) left the later
// comparisons unseen, and the first line to reach them threw the optimized code away.

/** `disallow:` at `s` (any case), the first letter known. */
function isDisallowAt(text: string, s: number, e: number): boolean {
  if (s + 8 >= e) return false;
  return (
    ((text.charCodeAt(s + 8) ^ 0x3a) |
      ((text.charCodeAt(s + 1) | 0x20) ^ 0x69) |
      ((text.charCodeAt(s + 2) | 0x20) ^ 0x73) |
      ((text.charCodeAt(s + 3) | 0x20) ^ 0x61) |
      ((text.charCodeAt(s + 4) | 0x20) ^ 0x6c) |
      ((text.charCodeAt(s + 5) | 0x20) ^ 0x6c) |
      ((text.charCodeAt(s + 6) | 0x20) ^ 0x6f) |
      ((text.charCodeAt(s + 7) | 0x20) ^ 0x77)) ===
    0
  );
}

/** `allow:` at `s` (any case), the first letter known. */
function isAllowAt(text: string, s: number, e: number): boolean {
  if (s + 5 >= e) return false;
  return (
    ((text.charCodeAt(s + 5) ^ 0x3a) |
      ((text.charCodeAt(s + 1) | 0x20) ^ 0x6c) |
      ((text.charCodeAt(s + 2) | 0x20) ^ 0x6c) |
      ((text.charCodeAt(s + 3) | 0x20) ^ 0x6f) |
      ((text.charCodeAt(s + 4) | 0x20) ^ 0x77)) ===
    0
  );
}

/** `user-agent:` at `s` (any case), the first letter known. */
function isUserAgentAt(text: string, s: number, e: number): boolean {
  if (s + 10 >= e) return false;
  return (
    ((text.charCodeAt(s + 10) ^ 0x3a) |
      ((text.charCodeAt(s + 1) | 0x20) ^ 0x73) |
      ((text.charCodeAt(s + 2) | 0x20) ^ 0x65) |
      ((text.charCodeAt(s + 3) | 0x20) ^ 0x72) |
      (text.charCodeAt(s + 4) ^ 0x2d) |
      ((text.charCodeAt(s + 5) | 0x20) ^ 0x61) |
      ((text.charCodeAt(s + 6) | 0x20) ^ 0x67) |
      ((text.charCodeAt(s + 7) | 0x20) ^ 0x65) |
      ((text.charCodeAt(s + 8) | 0x20) ^ 0x6e) |
      ((text.charCodeAt(s + 9) | 0x20) ^ 0x74)) ===
    0
  );
}

/** `sitemap:` at `s` (any case), the first letter known. */
function isSitemapAt(text: string, s: number, e: number): boolean {
  if (s + 7 >= e) return false;
  return (
    ((text.charCodeAt(s + 7) ^ 0x3a) |
      ((text.charCodeAt(s + 1) | 0x20) ^ 0x69) |
      ((text.charCodeAt(s + 2) | 0x20) ^ 0x74) |
      ((text.charCodeAt(s + 3) | 0x20) ^ 0x65) |
      ((text.charCodeAt(s + 4) | 0x20) ^ 0x6d) |
      ((text.charCodeAt(s + 5) | 0x20) ^ 0x61) |
      ((text.charCodeAt(s + 6) | 0x20) ^ 0x70)) ===
    0
  );
}

const USER_AGENT_TYPOS = ['useragent', 'user agent'];
const DISALLOW_TYPOS = ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw'];

/**
 * Google's ParsedRobotsKey::Parse for the key `text[start, end)`, without slicing it out:
 * case-insensitive *prefix* tests, in this order.
 */
export function classifyKeyAt(text: string, start: number, end: number): [DirectiveKind, boolean] {
  // Every key Google knows starts with u, a, d or s: anything else is unknown at once.
  const first = lower(text.charCodeAt(start));
  if (first === 0x75 /* u */) {
    if (startsWithLower(text, start, end, 'user-agent')) return USER_AGENT;
    if (startsWithAny(text, start, end, USER_AGENT_TYPOS)) return USER_AGENT_TYPO;
  } else if (first === 0x61 /* a */) {
    if (startsWithLower(text, start, end, 'allow')) return ALLOW;
  } else if (first === 0x64 /* d */) {
    if (startsWithLower(text, start, end, 'disallow')) return DISALLOW;
    if (startsWithAny(text, start, end, DISALLOW_TYPOS)) return DISALLOW_TYPO;
  } else if (first === 0x73 /* s */) {
    if (startsWithLower(text, start, end, 'sitemap')) return SITEMAP;
    if (startsWithLower(text, start, end, 'site-map')) return SITEMAP_TYPO;
  }
  return UNKNOWN;
}

function startsWithAny(
  text: string,
  start: number,
  end: number,
  prefixes: readonly string[],
): boolean {
  for (let i = 0; i < prefixes.length; i++) {
    if (startsWithLower(text, start, end, prefixes[i]!)) return true;
  }
  return false;
}

const USER_AGENT: [DirectiveKind, boolean] = ['user-agent', false];
const USER_AGENT_TYPO: [DirectiveKind, boolean] = ['user-agent', true];
const ALLOW: [DirectiveKind, boolean] = ['allow', false];
const DISALLOW: [DirectiveKind, boolean] = ['disallow', false];
const DISALLOW_TYPO: [DirectiveKind, boolean] = ['disallow', true];
const SITEMAP: [DirectiveKind, boolean] = ['sitemap', false];
const SITEMAP_TYPO: [DirectiveKind, boolean] = ['sitemap', true];
const UNKNOWN: [DirectiveKind, boolean] = ['unknown', false];

/** ASCII lower-casing of one character code (absl's ascii_tolower). */
function lower(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
}

/**
 * `text[start, end)` starts with `prefix` (given in lower case), ignoring ASCII case. The
 * prefixes hold letters, `-` and space: setting bit 0x20 lower-cases a letter and leaves
 * them alone; the only other codes it maps onto them are CR and NUL, never inside a line.
 */
function startsWithLower(text: string, start: number, end: number, prefix: string): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    if ((text.charCodeAt(start + i) | 0x20) !== prefix.charCodeAt(i)) return false;
  }
  return true;
}
