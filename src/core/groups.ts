import { isGlobalAgent, productToken } from './agents.ts';
import { displayText, type ByteString } from './bytes.ts';
import { ExtraTable } from './extras.ts';
import type { Profile } from './profiles.ts';
import { GLOBAL_TOKEN, GroupTable, RuleTable, type Rule } from './tables.ts';
import type { Directive, LineInfo, TokenHandler } from './tokenizer.ts';

/** A group: consecutive user-agent lines and the rules that follow them. */
export interface Group {
  /** The user-agent values as written. */
  readonly agents: readonly string[];
  /** The line of each user-agent line. */
  readonly agentLines: readonly number[];
  /** Lower-cased names the group is matched by (product tokens; legacy: whole values). */
  readonly tokens: readonly string[];
  /** One of the agents is `*`. */
  readonly global: boolean;
  /** Allow and disallow rules, in file order. */
  readonly rules: readonly Rule[];
}

/** Builds the public view of group `g`. */
export function groupView(groups: GroupTable, rules: RuleTable, g: number): Group {
  const [first, end] = groups.agentRange(g);
  const [ruleFirst, ruleEnd] = groups.ruleRange(g, rules.size);
  const tokens = groups.agentTokens.slice(first, end);
  const list: Rule[] = [];
  for (let id = ruleFirst; id < ruleEnd; id++) list.push(rules.rule(id));
  return {
    agents: groups.agentValues.slice(first, end),
    agentLines: groups.agentLines.slice(first, end),
    tokens: tokens.filter((t) => t !== GLOBAL_TOKEN),
    global: tokens.includes(GLOBAL_TOKEN),
    rules: list,
  };
}

/** The parse result the RobotsTxt object is made of. */
export interface ParsedFile {
  groups: GroupTable;
  rules: RuleTable;
  sitemaps: string[];
  extras: ExtraTable;
  /** Lines of allow/disallow rules that stand before any user-agent (ignored). */
  orphanRuleLines: number[];
}

/** Keys seen often enough to share one string instead of a copy per line. */
const COMMON_KEYS = new Map(
  [
    'crawl-delay',
    'host',
    'clean-param',
    'request-rate',
    'visit-time',
    'noindex',
    'content-signal',
  ].map((k) => [k, k]),
);

/**
 * A token handler that builds groups as Google's matcher delimits them: a user-agent line
 * that follows an allow or disallow line starts a new group; sitemap and other lines do not
 * end one. With the legacy profile a blank line also ends the record.
 */
export class GroupBuilder implements TokenHandler {
  private readonly result: ParsedFile;
  /** The group lines are added to, or -1 before the first (legacy: after a blank line). */
  private current = -1;
  private readonly seenSitemaps = new Set<string>();
  line?: (info: LineInfo) => void;

  /**
   * @param unicode the tokenizer runs in unicode mode: values are text already (shown as they
   *   are) and are UTF-8 encoded only where bytes matter, before pattern normalisation.
   * @param ascii the whole input is ASCII: a value without `%` needs no normalisation in any
   *   profile (they only rewrite escapes and non-ASCII octets).
   */
  constructor(
    private readonly profile: Profile,
    private readonly unicode = false,
    private readonly ascii = false,
  ) {
    this.result = {
      groups: new GroupTable(),
      rules: new RuleTable(profile.wildcards),
      sitemaps: [],
      extras: new ExtraTable(),
      orphanRuleLines: [],
    };
    if (profile.blankLineEndsGroup) {
      this.line = (info: LineInfo) => {
        if (info.blank) this.current = -1;
      };
    }
  }

  /** Called once tokenizing is done: columns are copied to exact-size arrays. */
  finish(): ParsedFile {
    const result = this.result;
    result.rules.seal();
    result.groups.seal();
    result.extras.seal();
    result.sitemaps = result.sitemaps.slice();
    return result;
  }

  /** Text as shown to people: byte strings are decoded from UTF-8. */
  private display(text: ByteString, unicode = this.unicode): string {
    return unicode ? text : displayText(text);
  }

  directive(d: Directive): void {
    // The tokenizer gives a value as bytes in unicode mode when the line cut split a character.
    const unicode = this.unicode && !d.valueIsBytes;
    switch (d.kind) {
      case 'user-agent':
        return this.userAgent(d.line, d.value, unicode);
      case 'allow':
      case 'disallow':
        return this.rule(d.kind === 'allow', d.line, d.value, unicode);
      case 'sitemap': {
        const url = this.display(d.value, unicode);
        if (url.length > 0 && !this.seenSitemaps.has(url)) {
          this.seenSitemaps.add(url);
          this.result.sitemaps.push(url);
        }
        return;
      }
      default: {
        const key = this.display(d.key).toLowerCase();
        this.result.extras.add(
          COMMON_KEYS.get(key) ?? key,
          this.display(d.value, unicode),
          d.line,
          this.current,
        );
      }
    }
  }

  private userAgent(line: number, value: ByteString, unicode: boolean): void {
    const { groups, rules } = this.result;
    // A user-agent line after rules (or outside any group) starts a new group.
    if (this.current < 0 || rules.size > groups.ruleStart[this.current]!) {
      this.current = groups.startGroup(rules.size);
    }
    let token = GLOBAL_TOKEN;
    if (!isGlobalAgent(value)) {
      // Legacy matching is by substring of the whole value; the others by product token.
      token = (this.profile.agentMatch === 'substring' ? value : productToken(value)).toLowerCase();
    }
    groups.addAgent(this.display(value, unicode), line, token);
  }

  private rule(allow: boolean, line: number, value: ByteString, unicode: boolean): void {
    if (this.current < 0) {
      this.result.orphanRuleLines.push(line);
      return;
    }
    const profile = this.profile;
    const rules = this.result.rules;
    const pattern =
      this.ascii && value.indexOf('%') < 0 ? value : profile.normalizePattern(value, unicode);
    const id = rules.add(allow, line, this.display(value, unicode), pattern);
    // Google keeps empty rules: they match with priority 0, never decide, but can name the
    // matching line. In the 1996 standard an empty Disallow excludes nothing (and an empty
    // Allow matches every path).
    if (pattern.length === 0 && !allow && profile.precedence === 'first') {
      (rules.inert ??= new Set()).add(id);
    }
    if (profile.indexHtmlAlias && allow) {
      const alias = indexHtmlAlias(pattern);
      if (alias !== undefined) (rules.aliases ??= new Map()).set(id, alias);
    }
  }
}

/**
 * Google treats `Allow: <dir>/index.htm...` as also allowing `<dir>/` exactly: the alias is
 * only tried when the original pattern does not match, and it is always shorter, so adding
 * it as a rule of its own on the same line gives the same verdicts and lines.
 */
function indexHtmlAlias(pattern: string): string | undefined {
  const slash = pattern.lastIndexOf('/');
  if (slash < 0 || !pattern.startsWith('/index.htm', slash)) return undefined;
  return pattern.slice(0, slash + 1) + '$';
}
