import { isGlobalAgent, productToken } from './agents.ts';
import {
  displayText,
  indexOrLength,
  isAscii,
  nextNonAscii,
  wellFormed,
  type ByteString,
} from './bytes.ts';
import { ExtraTable } from './extras.ts';
import type { Profile } from './profiles.ts';
import { GLOBAL_TOKEN, GroupTable, RuleTable, type Rule } from './tables.ts';
import type { Directive, LineInfo, SkimmingHandler } from './tokenizer.ts';

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
    agents: groups.agentsOf(g),
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

/**
 * A token handler that builds groups as Google's matcher delimits them: a user-agent line
 * that follows an allow or disallow line starts a new group; sitemap and other lines do not
 * end one. With the legacy profile a blank line also ends the record.
 */
export class GroupBuilder implements SkimmingHandler {
  private readonly result: ParsedFile;
  /** The group lines are added to, or -1 before the first (legacy: after a blank line). */
  private current = -1;
  private seenSitemaps: Set<string> | undefined;
  // Rule values are checked in the text before they are sliced out of it: the next `%`, `*`
  // and non-ASCII character, each found once as the lines move forward.
  private nextPercent = -1;
  private nextStar = -1;
  private nextNonAscii = -1;
  private nextIndexHtml = -1;
  line?: (info: LineInfo) => void;

  /**
   * @param text what the tokenizer runs over (extras are kept as offsets into it).
   * @param unicode the tokenizer runs in unicode mode: values are text already (shown as they
   *   are) and are UTF-8 encoded only where bytes matter, before pattern normalisation.
   * @param ascii the whole input is ASCII: a value without `%` needs no normalisation in any
   *   profile (they only rewrite escapes and non-ASCII octets). Undefined when not known:
   *   found out when a rule first needs it (pages served as robots.txt seldom have rules).
   */
  constructor(
    private readonly profile: Profile,
    private readonly text: string,
    private readonly unicode = false,
    private ascii?: boolean,
  ) {
    this.result = {
      groups: new GroupTable(),
      rules: new RuleTable(),
      sitemaps: [],
      extras: new ExtraTable(text, unicode, ascii ?? false),
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
        return this.rule(d.kind === 'allow', d, unicode);
      case 'sitemap': {
        // Text may hold lone surrogates; shown as U+FFFD, as its UTF-8 bytes would be.
        const url = wellFormed(this.display(d.value, unicode));
        const seen = (this.seenSitemaps ??= new Set());
        if (url.length > 0 && !seen.has(url)) {
          seen.add(url);
          this.result.sitemaps.push(url);
        }
        return;
      }
      default:
        this.result.extras.add(d, this.current);
    }
  }

  /** Lines that can only be unknown keys: kept as they are (see `SkimmingHandler.other`). */
  other(firstLine: number, start: number, end: number): void {
    this.result.extras.addLines(firstLine, this.current, start, end);
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

  private rule(allow: boolean, d: Directive, unicode: boolean): void {
    if (this.current < 0) {
      this.result.orphanRuleLines.push(d.line);
      return;
    }
    const profile = this.profile;
    const rules = this.result.rules;
    const start = d.valueStart;
    const end = d.valueEnd;
    const value = d.value;
    const text = this.text;
    // Every profile rewrites only %-escapes and non-ASCII octets: most values stay as they are.
    if (this.nextPercent < start) this.nextPercent = indexOrLength(text, '%', start);
    const ascii = (this.ascii ??= isAscii(text));
    let plain = !d.valueIsBytes && this.nextPercent >= end;
    if (plain && !ascii) {
      if (this.nextNonAscii < start) this.nextNonAscii = nextNonAscii(text, start);
      plain = this.nextNonAscii >= end;
    }
    // In ASCII text a value is its own byte string: there is nothing to encode as UTF-8.
    const pattern = plain ? value : profile.normalizePattern(value, unicode && !ascii);
    let wild = false;
    if (profile.wildcards && !plain) {
      wild = hasWildcard(pattern);
    } else if (profile.wildcards) {
      // The pattern is the value as it stands in the text: look there.
      if (this.nextStar < start) this.nextStar = indexOrLength(text, '*', start);
      wild = this.nextStar < end || (end > start && text.charCodeAt(end - 1) === 0x24);
    }
    const id = rules.add(allow, d.line, this.display(value, unicode), pattern, wild);
    // Google keeps empty rules: they match with priority 0, never decide, but can name the
    // matching line. In the 1996 standard an empty Disallow excludes nothing (and an empty
    // Allow matches every path).
    if (pattern.length === 0 && !allow && profile.precedence === 'first') {
      (rules.inert ??= new Set()).add(id);
    }
    if (profile.indexHtmlAlias && allow) {
      // A plain value is its pattern: only one holding `/index.htm` can have an alias.
      if (plain && this.nextIndexHtml < start) {
        this.nextIndexHtml = indexOrLength(text, '/index.htm', start);
      }
      const alias = plain && this.nextIndexHtml >= end ? undefined : indexHtmlAlias(pattern);
      if (alias !== undefined) (rules.aliases ??= new Map()).set(id, alias);
    }
  }
}

/** The pattern has `*` or ends in `$`: it needs more than a prefix test. */
function hasWildcard(pattern: string): boolean {
  return pattern.indexOf('*') >= 0 || pattern.charCodeAt(pattern.length - 1) === 0x24;
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
