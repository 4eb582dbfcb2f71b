import { rootLinks, type RootLink } from './root-links.ts';
import { mergedSignals, signalLines, type SignalLine } from './content-signals.ts';
import { BoundedMap } from '../bounded-map.ts';
import {
  CRAWL_DELAY_KEYS,
  parseCleanParam,
  parseCrawlDelay,
  parseRequestRate,
  type CleanParam,
  type ContentSignals,
  type Extra,
  type ExtraTable,
  type RequestRate,
} from '../model/extras.ts';
import { groupView, type Group, type ParsedFile } from '../model/groups.ts';
import type { SitemapTable } from '../model/sitemaps.ts';
import type { Profile, ProfileName } from '../profiles/index.ts';
import { RuleIndex, type BestMatch, type MatchIndex } from '../match/rule-index.ts';
import { AliasedIndex } from '../match/aliased-index.ts';
import { asciiLowerCase } from '../agents/names.ts';
import { agentNotes } from './agent-notes.ts';
import { noPreference, type ContentUsage } from '../match/content-usage.ts';
import { statedUsage } from './content-usage.ts';
import {
  type Explanation,
  type RuleMatch,
  type UserAgent,
  type Verdict,
} from '../match/verdicts.ts';
import type { GroupTable, RuleTable } from '../model/tables.ts';
import type { Source } from '../text/source.ts';
import { HEAD_BYTES, notRobotsTxt, type NotRobotsTxt } from '../text/file-kind.ts';

interface Selection {
  readonly scope: 'specific' | 'global' | 'none';
  /** Indexes into the file's groups. */
  readonly groups: readonly number[];
  /**
   * The groups' rules, indexed. Google's index.html aliases end in `/$`, so they are looked
   * for (and indexed beside the rules if there are any) when a path ending in `/` is first
   * checked: most first checks are of other paths, and most files have no alias.
   */
  index: MatchIndex;
  /** `index` holds the groups' aliases, or has none to hold. */
  aliasesIndexed: boolean;
  /** The groups' extras in file order, gathered on first use. */
  extras?: readonly Extra[];
}

const SELECTION_CACHE_LIMIT = 256;
/** What a file with no sitemap line, or no line of another key, lists: shared, frozen. */
const NO_SITEMAPS: readonly string[] = Object.freeze([]);
const NO_EXTRAS: readonly Extra[] = Object.freeze([]);
/**
 * The best-match record every check fills and reads before the next begins: one for every
 * file, where one made for each was a tenth of what a file's first check allocates.
 */
const SCRATCH: BestMatch = { allow: -1, disallow: -1 };

/**
 * A parsed robots.txt. Parse once with `parse()`, then ask as many questions as needed:
 * the groups for each crawler are chosen and indexed on first use and cached.
 */
export class RobotsTxt {
  /** The interpretation it was parsed with (`parse(body, { profile })`). */
  readonly profile: ProfileName;

  /** Lines of allow/disallow rules before the first user-agent line (ignored). */
  readonly orphanRuleLines: readonly number[];
  /** Lines, as Google counts them, in the part that was read. */
  readonly lineCount: number;
  /**
   * The line the size limit cuts, read only in part (its rule then matches as cut, more than
   * written, as Google applies it); undefined when the limit falls between lines or is not
   * reached.
   */
  readonly cutLine: number | undefined;

  readonly #profile: Profile;
  readonly #groupTable: GroupTable;
  readonly #table: RuleTable;
  readonly #extras: ExtraTable | undefined;
  readonly #sitemaps: SitemapTable | undefined;
  readonly #source: Source;
  #notRobotsTxt: NotRobotsTxt | 'no' | undefined;
  #groups: Group[] | undefined;
  /** Views made one at a time (`groupsFor`) before the whole list was asked for. */
  #groupViews: Map<number, Group> | undefined;
  /** The last selection asked for; most programs ask for one crawler only. */
  #lastKey: string | undefined;
  /** The last selection's name, when it was asked for by one string. */
  #lastName: string | undefined;
  #lastSelection: Selection | undefined;
  #selections: BoundedMap<string, Selection> | undefined;
  #bytes: { total: number; read: number } | (() => { total: number; read: number });

  /** @internal Use `parse()`. */
  constructor(
    profile: Profile,
    parsed: ParsedFile,
    lineCount: number,
    bytes: { total: number; read: number } | (() => { total: number; read: number }),
    cutMidLine = false,
  ) {
    this.profile = profile.name;
    this.#profile = profile;
    this.#groupTable = parsed.groups;
    this.#table = parsed.rules;
    this.#sitemaps = parsed.sitemaps;
    this.#extras = parsed.extras;
    this.#source = parsed.source;
    this.orphanRuleLines = parsed.orphanRuleLines;
    this.lineCount = lineCount;
    this.#bytes = bytes;
    this.cutLine = cutMidLine ? lineCount : undefined;
  }

  /**
   * What the body is when it is no robots.txt at all (an HTML page, UTF-16 text, binary
   * data; read from its first 4 KiB, as `lint` reads it): Google finds no rule in such a
   * body, so every URL is allowed, and an answer from it should say why. Undefined for a
   * robots.txt, however wrong its lines.
   */
  get notRobotsTxt(): NotRobotsTxt | undefined {
    this.#notRobotsTxt ??= notRobotsTxt(this.#source.headBytes(HEAD_BYTES)) ?? 'no';
    return this.#notRobotsTxt === 'no' ? undefined : this.#notRobotsTxt;
  }

  /** The groups in file order. */
  get groups(): readonly Group[] {
    if (!this.#groups) {
      const views: Group[] = [];
      for (let g = 0; g < this.#groupTable.size; g++) views.push(this.#groupAt(g));
      this.#groups = views;
      this.#groupViews = undefined;
    }
    return this.#groups;
  }

  /** Group `g`'s view, made once (without the views of every other group). */
  #groupAt(g: number): Group {
    if (this.#groups) return this.#groups[g]!;
    const views = (this.#groupViews ??= new Map());
    let view = views.get(g);
    if (!view) views.set(g, (view = groupView(this.#groupTable, this.#table, g)));
    return view;
  }

  /** Sitemap URLs, in file order, without duplicates. */
  get sitemaps(): readonly string[] {
    return this.#sitemaps?.list() ?? NO_SITEMAPS;
  }

  /** Lines other than user-agent, allow, disallow and sitemap, in file order. */
  get extras(): readonly Extra[] {
    return this.#extras?.list() ?? NO_EXTRAS;
  }

  /** Size of the body in bytes, and how many were read (less when over `maxBytes`). */
  get bytes(): {
    /** The body's size in bytes. */
    readonly total: number;
    /** How many were read: `total`, or `maxBytes` when over it. */
    readonly read: number;
  } {
    // For text input the UTF-8 size is only computed when asked for.
    if (typeof this.#bytes === 'function') this.#bytes = this.#bytes();
    return this.#bytes;
  }

  /**
   * Whether `userAgent` may fetch `url`. The URL is matched as given (pass it %-encoded, as
   * a crawler requests it); `userAgent` is compared, case-insensitively and as given, with
   * the product tokens of the file's user-agent lines. Never throws.
   */
  isAllowed(url: string, userAgent: UserAgent): boolean {
    // `verdict(...).allowed`, without the objects a verdict is made of.
    const path = this.#profile.matchPath(String(url ?? ''));
    const index = this.#rulesFor(path, userAgent);
    return typeof index === 'string' || this.#profile.precedence.allows(index, path, SCRATCH);
  }

  /**
   * The verdict and the deciding line (as `explain()` gives them) without the explanation:
   * for checking many URLs fast. With `withRule`, also the deciding rule (`explain().rule`),
   * still without gathering every match. Never throws.
   */
  verdict(url: string, userAgent: UserAgent, options?: { withRule?: boolean }): Verdict {
    const path = this.#profile.matchPath(String(url ?? ''));
    const index = this.#rulesFor(path, userAgent);
    if (typeof index === 'string') return { allowed: true, line: 0, reason: index };
    const decision = this.#profile.precedence.decide(index, path, SCRATCH);
    const { allowed, deciding, reason } = decision;
    if (options?.withRule && deciding >= 0) {
      const rule = this.#ruleMatch(index.idAt(deciding));
      return { allowed, line: index.lineAt(deciding), reason, rule };
    }
    return { allowed, line: index.lineAt(deciding), reason };
  }

  /**
   * The indexed rules `path` is judged by for `userAgent`, or why none are: the path is
   * always allowed (RFC 9309's `/robots.txt`), or no group applies.
   */
  #rulesFor(
    path: string,
    userAgent: UserAgent,
  ): MatchIndex | 'robots-txt-always-allowed' | 'no-matching-group' {
    if (this.#profile.isImplicitlyAllowed(path)) return 'robots-txt-always-allowed';
    const selection = this.#select(userAgent);
    if (selection.scope === 'none') return 'no-matching-group';
    return this.#indexForPath(selection, path);
  }

  /** The verdict for `url` with everything that led to it. Never throws. */
  explain(url: string, userAgent: UserAgent): Explanation {
    const profile = this.#profile;
    const path = profile.matchPath(String(url ?? ''));
    const notes = agentNotes(userAgent);
    const base = {
      path,
      profile: profile.name,
      tieBreak: false,
      matches: [],
      ...(notes.length > 0 ? { agentNotes: notes } : {}),
    };
    if (profile.isImplicitlyAllowed(path)) {
      return { ...base, allowed: true, line: 0, reason: 'robots-txt-always-allowed' };
    }
    const selection = this.#select(userAgent);
    if (selection.scope === 'none') {
      return { ...base, allowed: true, line: 0, reason: 'no-matching-group' };
    }
    const index = this.#indexForPath(selection, path);
    const matched: number[] = [];
    index.forEachMatch(path, (k) => matched.push(k));
    matched.sort(
      (a, b) => index.lineAt(a) - index.lineAt(b) || index.priorityAt(a) - index.priorityAt(b),
    );
    const { allowed, deciding, reason, tieBreak } = profile.precedence.decideAmong(index, matched);
    const ignored = selection.scope === 'specific' ? this.#globalMatches(path) : [];
    return {
      ...base,
      ...(ignored.length > 0 ? { ignoredGlobalRules: ignored } : {}),
      allowed,
      line: index.lineAt(deciding),
      reason,
      ...(deciding >= 0 ? { rule: this.#ruleMatch(index.idAt(deciding)) } : {}),
      group: {
        scope: selection.scope,
        agents: selection.groups.flatMap((g) => this.#groupTable.agentsOf(g)),
        lines: selection.groups.map(
          (g) => this.#groupTable.agentLines[this.#groupTable.agentStart[g]!]!,
        ),
      },
      tieBreak,
      matches: matched.map((k) => this.#ruleMatch(index.idAt(k))),
    };
  }

  /** The `*` group's rules matching `path`, in file order (for `explain` only). */
  #globalMatches(path: string): RuleMatch[] {
    // Asked without disturbing the memo of the crawler's own selection.
    const [key, name, last] = [this.#lastKey, this.#lastName, this.#lastSelection];
    const global = this.#select('*');
    [this.#lastKey, this.#lastName, this.#lastSelection] = [key, name, last];
    if (global.scope !== 'global') return [];
    const index = this.#indexForPath(global, path);
    const found: number[] = [];
    index.forEachMatch(path, (k) => found.push(k));
    found.sort((a, b) => index.lineAt(a) - index.lineAt(b));
    return found.map((k) => this.#ruleMatch(index.idAt(k)));
  }

  /**
   * The groups that apply to `userAgent`: every group naming it (merged), else every `*`
   * group, else none (Google); the legacy profile picks one record.
   */
  groupsFor(userAgent: UserAgent): {
    /** `specific`: groups naming the crawler; `global`: the `*` groups; `none`: no group applies. */
    scope: 'specific' | 'global' | 'none';
    /** The groups, in file order. */
    groups: Group[];
  } {
    const selection = this.#select(userAgent);
    return { scope: selection.scope, groups: selection.groups.map((g) => this.#groupAt(g)) };
  }

  /** Seconds from the first valid crawl-delay line of the groups that apply to the agent. */
  crawlDelay(userAgent: UserAgent): number | undefined {
    let delay: number | undefined;
    this.#scanExtras(userAgent, (extra) => {
      if (CRAWL_DELAY_KEYS.has(extra.key)) delay = parseCrawlDelay(extra.value);
      return delay !== undefined;
    });
    return delay;
  }

  /** The first valid request-rate of the groups that apply to the agent. */
  requestRate(userAgent: UserAgent): RequestRate | undefined {
    let rate: RequestRate | undefined;
    this.#scanExtras(userAgent, (extra) => {
      if (extra.key === 'request-rate') rate = parseRequestRate(extra.value);
      return rate !== undefined;
    });
    return rate;
  }

  /**
   * Content-Signal settings for the agent, merged (first wins): its groups' own lines, and
   * for a group without any (or an agent no group names) the lines before any `User-agent`,
   * which speak for the whole file (repkit's reading; Cloudflare's scopes them to groups).
   */
  contentSignals(userAgent: UserAgent): ContentSignals | undefined {
    return mergedSignals(this.contentSignalLines(userAgent));
  }

  /** The Content-Signal lines `contentSignals` reads for the agent, its groups' own first. */
  contentSignalLines(userAgent: UserAgent): SignalLine[] {
    const selection = this.#select(userAgent);
    const fileLevel = this.extras.filter((e) => e.group === undefined);
    return signalLines(selection.groups, this.#extrasFor(userAgent), fileLevel);
  }

  /**
   * What the site says `url`'s content may be used for (AI training, search), from the
   * `Content-Usage` rules of the groups that apply to `userAgent` (draft-ietf-aipref-attach):
   * the rules with the longest path matching the URL, matched like Allow and Disallow, a rule
   * without a path applying to every path, combined per category (any `n` disallows). A URL
   * robots.txt disallows gets no preference. Never throws.
   */
  contentUsage(url: string, userAgent: UserAgent): ContentUsage {
    const profile = this.#profile;
    const path = profile.matchPath(String(url ?? ''));
    if (!this.verdict(url, userAgent).allowed) {
      return noPreference(path, 'disallowed-by-robots-txt');
    }
    return statedUsage(profile, path, this.#extrasFor(userAgent));
  }

  /** The first `Host:` value (Yandex's preferred mirror), if any. */
  get host(): string | undefined {
    return this.extras.find((e) => e.key === 'host' && e.value.length > 0)?.value;
  }

  /** `License:` lines (RSL 1.0): where the site's licence terms are, in file order. */
  get licenses(): RootLink[] {
    return rootLinks(this.extras, 'license');
  }

  /** `LLMs:` lines: where the site's llms.txt is, in file order. */
  get llmsTxt(): RootLink[] {
    return rootLinks(this.extras, 'llms');
  }

  /** Every valid `Clean-param:` line. */
  get cleanParams(): CleanParam[] {
    return this.extras.flatMap((e) =>
      e.key === 'clean-param' ? (parseCleanParam(e.value, e.line) ?? []) : [],
    );
  }

  #ruleMatch(id: number): RuleMatch {
    const table = this.#table;
    const rule = table.rule(id >= 0 ? id : ~id);
    const { kind, line, value } = rule;
    if (id >= 0) return { kind, line, value, pattern: rule.pattern, length: rule.priority };
    const alias = table.alias(~id)!;
    return { kind, line, value, pattern: alias, length: alias.length, aliasOf: rule.pattern };
  }

  /** The extras of the groups chosen for `userAgent`: one pass over the file's, once per selection. */
  /**
   * The agent's extras in file order until `visit` answers true, read from its groups' own
   * lines and only as far as needed: a politeness turn's crawl-delay lookup costs what the
   * crawler's groups hold up to the first valid line, whatever the file's size.
   */
  #scanExtras(userAgent: UserAgent, visit: (extra: Extra) => boolean): void {
    const selection = this.#select(userAgent);
    if (selection.extras) {
      for (const extra of selection.extras) if (visit(extra)) return;
    } else if (selection.groups.length > 0) {
      this.#extras?.scanGroups(selection.groups, visit);
    }
  }

  #extrasFor(userAgent: UserAgent): readonly Extra[] {
    const selection = this.#select(userAgent);
    if (selection.extras) return selection.extras;
    const extras =
      selection.groups.length === 0 || !this.#extras
        ? []
        : this.#extras.forGroups(selection.groups);
    selection.extras = extras;
    return extras;
  }

  #select(userAgent: UserAgent): Selection {
    // The usual call: the same one name as last time, without making its key.
    if (userAgent === this.#lastName && this.#lastName !== undefined) return this.#lastSelection!;
    if (this.#lastSelection === undefined && typeof userAgent === 'string') {
      // The first question, by one name: its key is made if a second crawler is asked about.
      this.#lastName = userAgent;
      return (this.#lastSelection = this.#computeSelection([lowerCaseName(userAgent)]));
    }
    const agents: readonly string[] =
      typeof userAgent === 'string' ? [userAgent] : Array.isArray(userAgent) ? userAgent : [];
    const key = selectionKey(agents);
    this.#lastKey ??= this.#lastName === undefined ? undefined : selectionKey([this.#lastName]);
    if (key === this.#lastKey) return this.#lastSelection!;
    let selection = this.#selections?.peek(key);
    if (!selection) {
      // Google folds ASCII letters only (the Kelvin sign is no `k`).
      selection = this.#computeSelection(
        agents.length === 1
          ? [lowerCaseName(String(agents[0]))]
          : agents.map((a) => asciiLowerCase(String(a))),
      );
      // A map only once a second crawler is asked about; bounded against endless names.
      if (this.#lastKey !== undefined) {
        if (!this.#selections) {
          this.#selections = new BoundedMap({ maxEntries: SELECTION_CACHE_LIMIT });
          this.#selections.set(this.#lastKey, this.#lastSelection!);
        }
        this.#selections.set(key, selection);
      }
    }
    this.#lastKey = key;
    this.#lastName = typeof userAgent === 'string' ? userAgent : undefined;
    this.#lastSelection = selection;
    return selection;
  }

  #computeSelection(names: string[]): Selection {
    const { scope, groups: chosen } = this.#profile.chooseGroups(this.#groupTable, names);
    const aliasesIndexed = this.#profile.aliasOf === undefined;
    return { scope, groups: chosen, index: this.#indexFor(chosen), aliasesIndexed };
  }

  /** The selection's index, its aliases beside it from the first `path` that could match one. */
  #indexForPath(selection: Selection, path: string): MatchIndex {
    if (!selection.aliasesIndexed && path.charCodeAt(path.length - 1) === 0x2f) {
      selection.aliasesIndexed = true;
      // Most files hold no `/index.htm` at all: one search of the text says so.
      if (!this.#table.mayHoldAliases()) return selection.index;
      const aliases = this.#aliases(selection.groups);
      if (aliases !== undefined) selection.index = new AliasedIndex(selection.index, aliases);
    }
    return selection.index;
  }

  /** An index over the rules of the chosen groups, without aliases (see `#indexForPath`). */
  #indexFor(chosen: readonly number[]): RuleIndex {
    const table = this.#table;
    const plain = this.#profile.plainValuesArePatterns;
    // No array is taken apart here: run cold (a short-lived process, a file checked once),
    // the engine takes destructuring through the iterator protocol, call by call.
    if (chosen.length === 1 && !table.inert) {
      const g = chosen[0]!;
      const groups = this.#groupTable;
      return RuleIndex.ofRange(table, groups.firstRule(g), groups.ruleEnd(g, table.size), plain);
    }
    return new RuleIndex(table, this.#ruleIds(chosen), plain);
  }

  /** Calls `visit(id)` for each of the chosen groups' rules that can match, in order. */
  #eachRule(chosen: readonly number[], visit: (id: number) => void): void {
    const table = this.#table;
    const groups = this.#groupTable;
    for (const g of chosen) {
      const end = groups.ruleEnd(g, table.size);
      for (let id = groups.firstRule(g); id < end; id++) {
        if (!table.inert?.has(id)) visit(id);
      }
    }
  }

  /** The ids of the chosen groups' rules that can match. */
  #ruleIds(chosen: readonly number[]): number[] {
    const ids: number[] = [];
    this.#eachRule(chosen, (id) => ids.push(id));
    return ids;
  }

  /** An index of the chosen groups' index.html aliases; undefined if they have none. */
  #aliases(chosen: readonly number[]): RuleIndex | undefined {
    const table = this.#table;
    const ids: number[] = [];
    const patterns: string[] = [];
    this.#eachRule(chosen, (id) => {
      const alias = table.alias(id);
      if (alias === undefined) return;
      ids.push(~id);
      patterns.push(alias);
    });
    return ids.length > 0 ? RuleIndex.ofAliases(table, ids, patterns) : undefined;
  }
}

/** The last name lower-cased: a crawler asks every file it parses by the same name. */
let lastName = '';
let lastLowerCase = '';

/** `asciiLowerCase(name)`, the same string for the same name asked again (see `lastName`). */
function lowerCaseName(name: string): string {
  if (name !== lastName) {
    lastLowerCase = asciiLowerCase(name);
    lastName = name;
  }
  return lastLowerCase;
}

/**
 * One key per list of names, so that no two lists that can choose differently share a
 * selection: one name is itself behind a `'` (no list's key starts so), several are their JSON
 * array (`[]` and `['']`, `['a','b']` and `'a\nb'` all differ).
 */
function selectionKey(agents: readonly string[]): string {
  return agents.length === 1 ? "'" + String(agents[0]) : JSON.stringify(agents.map(String));
}
