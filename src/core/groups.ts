import { isGlobalAgent, productToken } from './agents.ts';
import { displayText, type ByteString } from './bytes.ts';
import type { Extra } from './extras.ts';
import { compilePattern, type CompiledPattern } from './pattern.ts';
import type { Profile } from './profiles.ts';
import type { IndexedRule } from './rule-index.ts';
import type { Directive, LineInfo, TokenHandler } from './tokenizer.ts';

/** An allow or disallow line of a group. */
export interface Rule extends IndexedRule {
  readonly kind: 'allow' | 'disallow';
  readonly line: number;
  /** The value as written. */
  readonly value: string;
  /** What is matched: the value after the profile's normalisation (Google: %-escaped). */
  readonly pattern: string;
  /** Octets of `pattern`: the rule's weight in longest-match precedence. */
  readonly priority: number;
  /** Set on the `/dir/$` rule Google derives from `Allow: /dir/index.html`. */
  readonly aliasOf?: string;
  readonly compiled: CompiledPattern;
}

/** A group: consecutive user-agent lines and the rules that follow them. */
export interface Group {
  /** The user-agent values as written. */
  readonly agents: readonly string[];
  /** The line of each user-agent line. */
  readonly agentLines: readonly number[];
  /** Lower-cased product tokens of the agents that are not `*`. */
  readonly tokens: readonly string[];
  /** One of the agents is `*`. */
  readonly global: boolean;
  /** Allow and disallow rules, in file order. */
  readonly rules: readonly Rule[];
}

interface MutableGroup extends Group {
  agents: string[];
  agentLines: number[];
  tokens: string[];
  global: boolean;
  rules: Rule[];
  /** Rules the matcher uses: `rules` plus derived aliases, minus rules that match nothing. */
  matchRules: Rule[];
}

/** The parse result the RobotsTxt object is made of. */
export interface ParsedFile {
  groups: MutableGroup[];
  sitemaps: string[];
  extras: Extra[];
  /** Lines of allow/disallow rules that stand before any user-agent (ignored). */
  orphanRuleLines: number[];
}

/**
 * A token handler that builds groups as Google's matcher delimits them: a user-agent line
 * that follows an allow or disallow line starts a new group; sitemap and other lines do not
 * end one. With the legacy profile a blank line also ends the record.
 */
export class GroupBuilder implements TokenHandler {
  readonly result: ParsedFile = { groups: [], sitemaps: [], extras: [], orphanRuleLines: [] };
  private current: MutableGroup | undefined;
  private currentHasRules = false;
  private readonly seenSitemaps = new Set<string>();

  constructor(private readonly profile: Profile) {
    if (profile.blankLineEndsGroup) {
      this.line = (info: LineInfo) => {
        if (info.blank) this.current = undefined;
      };
    }
  }

  line?: (info: LineInfo) => void;

  directive(d: Directive): void {
    switch (d.kind) {
      case 'user-agent':
        return this.userAgent(d.line, d.value);
      case 'allow':
      case 'disallow':
        return this.rule(d.kind, d.line, d.value);
      case 'sitemap': {
        const url = displayText(d.value);
        if (url.length > 0 && !this.seenSitemaps.has(url)) {
          this.seenSitemaps.add(url);
          this.result.sitemaps.push(url);
        }
        return;
      }
      default:
        this.result.extras.push({
          key: displayText(d.key).toLowerCase(),
          value: displayText(d.value),
          line: d.line,
          group: this.current ? this.result.groups.length - 1 : undefined,
        });
    }
  }

  private userAgent(line: number, value: ByteString): void {
    if (!this.current || this.currentHasRules) {
      this.current = {
        agents: [],
        agentLines: [],
        tokens: [],
        global: false,
        rules: [],
        matchRules: [],
      };
      this.currentHasRules = false;
      this.result.groups.push(this.current);
    }
    const group = this.current;
    group.agents.push(displayText(value));
    group.agentLines.push(line);
    if (isGlobalAgent(value)) {
      group.global = true;
    } else {
      // Legacy matching is by substring of the whole value; the others by product token.
      const name = this.profile.agentMatch === 'substring' ? value : productToken(value);
      group.tokens.push(name.toLowerCase());
    }
  }

  private rule(kind: 'allow' | 'disallow', line: number, value: ByteString): void {
    const group = this.current;
    if (!group) {
      this.result.orphanRuleLines.push(line);
      return;
    }
    this.currentHasRules = true;
    const profile = this.profile;
    const pattern = profile.normalizePattern(value);
    const rule: Rule = {
      kind,
      line,
      value: displayText(value),
      pattern,
      priority: pattern.length,
      compiled: compilePattern(pattern, profile.wildcards),
    };
    group.rules.push(rule);
    // Google keeps empty rules: they match with priority 0, never decide, but can name the
    // matching line. In the 1996 standard an empty Disallow excludes nothing and an empty
    // Allow matches every path.
    if (pattern.length > 0 || profile.precedence === 'longest' || kind === 'allow') {
      group.matchRules.push(rule);
    }
    if (profile.indexHtmlAlias && kind === 'allow') {
      const alias = indexHtmlAlias(pattern);
      if (alias !== undefined) {
        group.matchRules.push({
          ...rule,
          pattern: alias,
          priority: alias.length,
          aliasOf: pattern,
          compiled: compilePattern(alias, true),
        });
      }
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
