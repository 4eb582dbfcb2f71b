import { bytesToByteString, isAscii, utf8ByteString, type ByteString } from './bytes.ts';
import { InvalidInputError } from './errors.ts';
import {
  CRAWL_DELAY_KEYS,
  parseCleanParam,
  parseContentSignal,
  parseCrawlDelay,
  parseRequestRate,
  type CleanParam,
  type Extra,
  type RequestRate,
} from './extras.ts';
import { GroupBuilder, type Group, type ParsedFile, type Rule } from './groups.ts';
import { isRobotsTxtPath, PROFILES, type Profile, type ProfileName } from './profiles.ts';
import { isBetter, RuleIndex, type BestMatch } from './rule-index.ts';
import { tokenize, type TokenHandler } from './tokenizer.ts';

/** Google ignores everything after the first 500 KiB of a robots.txt. */
export const DEFAULT_MAX_BYTES = 512_000;

export interface ParseOptions {
  /** `google` (default), `rfc9309` or `legacy`: see the README for the differences. */
  profile?: ProfileName;
  /** Bytes of the body that are read; the rest is ignored. Default 512,000 (500 KiB). */
  maxBytes?: number;
}

/** One crawler name, or several that act as one crawler (any of them selects a group). */
export type UserAgent = string | readonly string[];

/** Why a URL got its verdict. */
export type VerdictReason =
  | 'allowed-by-rule'
  | 'disallowed-by-rule'
  | 'no-matching-rule'
  | 'no-matching-group'
  | 'robots-txt-always-allowed';

/** A rule that matched the URL, with its match length. */
export interface RuleMatch {
  readonly kind: 'allow' | 'disallow';
  readonly line: number;
  /** The value as written. */
  readonly value: string;
  /** What was matched (after normalisation). */
  readonly pattern: string;
  /** Octets matched-by length: the rule's weight. */
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

interface Selection {
  readonly scope: 'specific' | 'global' | 'none';
  readonly groups: readonly InternalGroup[];
  readonly index: RuleIndex<Rule>;
}

type InternalGroup = ParsedFile['groups'][number];

const SELECTION_CACHE_LIMIT = 256;
const EMPTY_INDEX = new RuleIndex<Rule>([]);

/**
 * A parsed robots.txt. Parse once with `parse()`, then ask as many questions as needed:
 * the group for each crawler is chosen and indexed on first use and cached.
 */
export class RobotsTxt {
  readonly profile: ProfileName;
  /** The groups in file order. */
  readonly groups: readonly Group[];
  /** Sitemap URLs, in file order, without duplicates. */
  readonly sitemaps: readonly string[];
  /** Lines other than user-agent, allow, disallow and sitemap. */
  readonly extras: readonly Extra[];
  /** Lines of allow/disallow rules before the first user-agent line (ignored). */
  readonly orphanRuleLines: readonly number[];
  /** Lines, as Google counts them, in the part that was read. */
  readonly lineCount: number;
  /** Size of the body in bytes, and how many were read (less when over `maxBytes`). */
  readonly bytes: { readonly total: number; readonly read: number };

  readonly #profile: Profile;
  readonly #groups: readonly InternalGroup[];
  readonly #selections = new Map<string, Selection>();
  readonly #best: BestMatch<Rule> = { allow: undefined, disallow: undefined };

  /** @internal Use `parse()`. */
  constructor(
    profile: Profile,
    parsed: ParsedFile,
    lineCount: number,
    bytes: { total: number; read: number },
  ) {
    this.profile = profile.name;
    this.#profile = profile;
    this.#groups = parsed.groups;
    this.groups = parsed.groups.map(publicGroup);
    this.sitemaps = parsed.sitemaps;
    this.extras = parsed.extras;
    this.orphanRuleLines = parsed.orphanRuleLines;
    this.lineCount = lineCount;
    this.bytes = bytes;
  }

  /**
   * Whether `userAgent` may fetch `url`. The URL is matched as given (pass it %-encoded, as
   * a crawler requests it); `userAgent` is compared, case-insensitively and as given, with
   * the product tokens of the file's user-agent lines. Never throws.
   */
  isAllowed(url: string, userAgent: UserAgent): boolean {
    const profile = this.#profile;
    const path = profile.matchPath(String(url ?? ''));
    if (profile.robotsTxtAlwaysAllowed && isRobotsTxtPath(path)) return true;
    const selection = this.#select(userAgent);
    if (selection.scope === 'none') return true;
    if (profile.precedence === 'first')
      return firstMatch(selection.index, path)?.kind !== 'disallow';
    const { allow, disallow } = selection.index.best(path, this.#best);
    const allowPriority = allow ? allow.priority : -1;
    const disallowPriority = disallow ? disallow.priority : -1;
    return !(disallowPriority > allowPriority && disallowPriority > 0);
  }

  /** The verdict for `url` with everything that led to it. Never throws. */
  explain(url: string, userAgent: UserAgent): Explanation {
    const profile = this.#profile;
    const path = profile.matchPath(String(url ?? ''));
    const base = { path, profile: profile.name, tieBreak: false, matches: [] };
    if (profile.robotsTxtAlwaysAllowed && isRobotsTxtPath(path)) {
      return { ...base, allowed: true, line: 0, reason: 'robots-txt-always-allowed' };
    }
    const selection = this.#select(userAgent);
    if (selection.scope === 'none') {
      return { ...base, allowed: true, line: 0, reason: 'no-matching-group' };
    }
    const matched: Rule[] = [];
    selection.index.forEachMatch(path, (rule) => {
      matched.push(rule);
    });
    matched.sort((a, b) => a.line - b.line || a.priority - b.priority);

    let deciding: Rule | undefined;
    let allowed: boolean;
    let tieBreak = false;
    if (profile.precedence === 'first') {
      deciding = matched[0];
      allowed = deciding?.kind !== 'disallow';
    } else {
      let allow: Rule | undefined;
      let disallow: Rule | undefined;
      for (const rule of matched) {
        if (rule.kind === 'allow') {
          if (!allow || isBetter(rule, allow)) allow = rule;
        } else if (!disallow || isBetter(rule, disallow)) {
          disallow = rule;
        }
      }
      const allowPriority = allow ? allow.priority : -1;
      const disallowPriority = disallow ? disallow.priority : -1;
      allowed = !(disallowPriority > allowPriority && disallowPriority > 0);
      // Google's matching_line(): the higher-priority match, the allow one on ties.
      deciding = disallowPriority > allowPriority ? disallow : allow;
      tieBreak = allowPriority > 0 && allowPriority === disallowPriority;
    }
    const decided =
      deciding !== undefined && (deciding.priority > 0 || profile.precedence === 'first');
    const reason: VerdictReason = !decided
      ? 'no-matching-rule'
      : allowed
        ? 'allowed-by-rule'
        : 'disallowed-by-rule';
    return {
      ...base,
      allowed,
      line: deciding?.line ?? 0,
      reason,
      ...(deciding ? { rule: ruleMatch(deciding) } : {}),
      group: {
        scope: selection.scope,
        agents: selection.groups.flatMap((g) => g.agents),
        lines: selection.groups.map((g) => g.agentLines[0]!),
      },
      tieBreak,
      matches: matched.map(ruleMatch),
    };
  }

  /**
   * The groups that apply to `userAgent`: every group naming it (merged), else every `*`
   * group, else none (Google); the legacy profile picks one record.
   */
  groupsFor(userAgent: UserAgent): { scope: 'specific' | 'global' | 'none'; groups: Group[] } {
    const selection = this.#select(userAgent);
    return {
      scope: selection.scope,
      groups: selection.groups.map((g) => this.groups[this.#groups.indexOf(g)]!),
    };
  }

  /** Seconds from the first valid crawl-delay line of the groups that apply to the agent. */
  crawlDelay(userAgent: UserAgent): number | undefined {
    for (const extra of this.#extrasFor(userAgent)) {
      if (!CRAWL_DELAY_KEYS.has(extra.key)) continue;
      const delay = parseCrawlDelay(extra.value);
      if (delay !== undefined) return delay;
    }
    return undefined;
  }

  /** The first valid request-rate of the groups that apply to the agent. */
  requestRate(userAgent: UserAgent): RequestRate | undefined {
    for (const extra of this.#extrasFor(userAgent)) {
      if (extra.key !== 'request-rate') continue;
      const rate = parseRequestRate(extra.value);
      if (rate) return rate;
    }
    return undefined;
  }

  /** Content-Signal settings of the groups that apply to the agent, merged (first wins). */
  contentSignals(userAgent: UserAgent): Record<string, boolean> | undefined {
    let signals: Record<string, boolean> | undefined;
    for (const extra of this.#extrasFor(userAgent)) {
      if (extra.key !== 'content-signal') continue;
      signals = { ...parseContentSignal(extra.value), ...signals };
    }
    return signals;
  }

  /** The first `Host:` value (Yandex's preferred mirror), if any. */
  get host(): string | undefined {
    return this.extras.find((e) => e.key === 'host' && e.value.length > 0)?.value;
  }

  /** Every valid `Clean-param:` line. */
  get cleanParams(): CleanParam[] {
    return this.extras.flatMap((e) =>
      e.key === 'clean-param' ? (parseCleanParam(e.value, e.line) ?? []) : [],
    );
  }

  #extrasFor(userAgent: UserAgent): Extra[] {
    const selection = this.#select(userAgent);
    const indexes = new Set(selection.groups.map((g) => this.#groups.indexOf(g)));
    return this.extras.filter((e) => e.group !== undefined && indexes.has(e.group));
  }

  #select(userAgent: UserAgent): Selection {
    const agents: readonly string[] =
      typeof userAgent === 'string' ? [userAgent] : Array.isArray(userAgent) ? userAgent : [];
    const key = agents.join('\n');
    let selection = this.#selections.get(key);
    if (!selection) {
      if (this.#selections.size >= SELECTION_CACHE_LIMIT) this.#selections.clear();
      selection = this.#computeSelection(agents.map((a) => String(a).toLowerCase()));
      this.#selections.set(key, selection);
    }
    return selection;
  }

  #computeSelection(names: string[]): Selection {
    const groups = this.#groups;
    let chosen: InternalGroup[];
    let scope: Selection['scope'];
    if (this.#profile.agentMatch === 'substring') {
      // 1996: the first record with a name that is a substring of the robot's name, else
      // the first `*` record.
      const named = groups.find((g) =>
        g.tokens.some((t) => t.length > 0 && names.some((n) => n.includes(t))),
      );
      const global = named ? undefined : groups.find((g) => g.global);
      chosen = named ? [named] : global ? [global] : [];
      scope = named ? 'specific' : global ? 'global' : 'none';
    } else {
      chosen = groups.filter((g) => g.tokens.some((t) => names.includes(t)));
      scope = 'specific';
      if (chosen.length === 0) {
        chosen = groups.filter((g) => g.global);
        scope = chosen.length > 0 ? 'global' : 'none';
      }
    }
    const rules = chosen.flatMap((g) => g.matchRules);
    return { scope, groups: chosen, index: rules.length ? new RuleIndex(rules) : EMPTY_INDEX };
  }
}

function firstMatch(index: RuleIndex<Rule>, path: string): Rule | undefined {
  let first: Rule | undefined;
  index.forEachMatch(path, (rule) => {
    if (!first || rule.line < first.line) first = rule;
  });
  return first;
}

function ruleMatch(rule: Rule): RuleMatch {
  return {
    kind: rule.kind,
    line: rule.line,
    value: rule.value,
    pattern: rule.pattern,
    length: rule.priority,
    ...(rule.aliasOf !== undefined ? { aliasOf: rule.aliasOf } : {}),
  };
}

function publicGroup(group: InternalGroup): Group {
  const { agents, agentLines, tokens, global, rules } = group;
  return { agents, agentLines, tokens, global, rules };
}

/**
 * Parses a robots.txt body. Never throws on content: every byte sequence parses, leniently,
 * the way Google parses. Throws `InvalidInputError` only for a body that is not text or
 * bytes, or an invalid option.
 */
export function parse(
  body: string | Uint8Array | ArrayBuffer,
  options: ParseOptions = {},
): RobotsTxt {
  const profile = PROFILES[options.profile ?? 'google'];
  if (!profile || !Object.hasOwn(PROFILES, options.profile ?? 'google')) {
    throw new InvalidInputError(
      'options.profile',
      `unknown profile ${JSON.stringify(options.profile)}; use google, rfc9309 or legacy`,
    );
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new InvalidInputError(
      'options.maxBytes',
      `must be a non-negative integer, got ${maxBytes}`,
    );
  }
  const { text, total } = toLimitedByteString(body, maxBytes);
  const builder = new GroupBuilder(profile);
  const lineCount = tokenize(text, builder);
  return new RobotsTxt(profile, builder.result, lineCount, { total, read: text.length });
}

/** Runs the shared tokenizer over a body with your own handler (linting, statistics...). */
export function tokenizeBody(
  body: string | Uint8Array | ArrayBuffer,
  handler: TokenHandler,
  maxBytes = DEFAULT_MAX_BYTES,
): { lineCount: number; total: number; read: number } {
  const { text, total } = toLimitedByteString(body, maxBytes);
  return { lineCount: tokenize(text, handler), total, read: text.length };
}

function toLimitedByteString(
  body: string | Uint8Array | ArrayBuffer,
  maxBytes: number,
): { text: ByteString; total: number } {
  if (typeof body === 'string') {
    if (isAscii(body)) return { text: body.slice(0, maxBytes), total: body.length };
    const text = utf8ByteString(body);
    return { text: text.slice(0, maxBytes), total: text.length };
  }
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) {
    const bytes = body instanceof Uint8Array ? body : new Uint8Array(body);
    return {
      text: bytesToByteString(bytes.subarray(0, maxBytes)),
      total: bytes.length,
    };
  }
  throw new InvalidInputError(
    'body',
    `expected a string, Uint8Array or ArrayBuffer, got ${body === null ? 'null' : typeof body}`,
  );
}
