import { ExtraTable } from './extras.ts';
import { PROFILES, type Profile } from '../profiles/index.ts';
import { keepShapeOf } from '../shapes.ts';
import { GLOBAL_TOKEN, GroupTable, RuleTable, type Rule } from './tables.ts';
import { SitemapTable } from './sitemaps.ts';
import { skimLane } from '../tokens/wasm-lane.ts';
import { eachLaneRule } from '../tokens/directive.ts';
import {
  type Directive,
  type KnownKind,
  type LineInfo,
  type SkimmingHandler,
} from '../tokens/tokenizer.ts';
import { Source } from '../text/source.ts';

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

/** Every file's orphan rule lines until it has one (shared, so frozen: it is public). */
const NO_LINES = Object.freeze([]) as unknown as number[];

/** The parse result the RobotsTxt object is made of. */
export interface ParsedFile {
  /** What was parsed (tables keep offsets into it). */
  source: Source;
  groups: GroupTable;
  rules: RuleTable;
  /** Undefined for a file with no sitemap line (most files: made on the first). */
  sitemaps: SitemapTable | undefined;
  /** Undefined for a file with no line of another key (made on the first). */
  extras: ExtraTable | undefined;
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
  /** The piece of the source being tokenized, and where it starts (see `build`). */
  private piece = '';
  private base = 0;
  line?: (info: LineInfo) => void;

  /** @param source what the tokenizer runs over (rules and extras are kept as offsets into it). */
  constructor(
    private readonly profile: Profile,
    private readonly source: Source,
  ) {
    this.result = {
      source,
      groups: new GroupTable(),
      rules: new RuleTable(source, profile),
      sitemaps: undefined,
      extras: undefined,
      orphanRuleLines: NO_LINES,
    };
    if (profile.blankLineEndsGroup) {
      this.line = (info: LineInfo) => {
        if (info.blank) this.current = -1;
      };
    }
  }

  /**
   * Tokenizes the source into groups, piece by piece (one piece but for a large body, see
   * `Source.ofLargeBytes`); returns the number of lines. Offsets the tokenizer gives are
   * the piece's; the tables keep them as the whole text's.
   */
  build(): number {
    const source = this.source;
    let lineNumber = 0;
    let end = 0;
    do {
      const start = end;
      this.piece = source.readPiece(start);
      this.base = start;
      end = start + this.piece.length;
      // The byte lane reads the bytes, or else text that may be ASCII (see wasm-lane.ts).
      lineNumber = skimLane(
        source.pieceBytes(start, end) ?? this.piece,
        this.piece,
        source.countsUtf8,
        this,
        lineNumber,
        start === 0,
        end === source.length,
      );
    } while (end < source.length);
    source.doneReading();
    return lineNumber;
  }

  /** Called once tokenizing is done: columns are copied to exact-size arrays. */
  finish(): ParsedFile {
    const result = this.result;
    result.rules.seal();
    result.groups.seal();
    result.extras?.seal();
    result.sitemaps?.seal();
    return result;
  }

  directive(d: Directive): void {
    switch (d.kind) {
      case 'user-agent':
        return this.agent(d.line, d.value, d.valueIsBytes);
      case 'allow':
      case 'disallow':
        return this.rule(
          d.kind === 'allow',
          d.line,
          this.base + d.valueStart,
          this.base + d.valueEnd,
          d.valueIsBytes ? d.value : undefined,
        );
      case 'sitemap':
        return this.#sitemaps().add(
          this.base + d.valueStart,
          this.base + d.valueEnd,
          d.valueIsBytes ? d.value : undefined,
        );
      default:
        this.#extras().add(d, this.current, this.base);
    }
  }

  /** Lines that can only be unknown keys: kept as they are (see `SkimmingHandler.other`). */
  other(firstLine: number, start: number, end: number): void {
    const base = this.base;
    this.#extras().addLines(firstLine, this.current, base + start, base + end);
  }

  /** A directive in its usual form (see `SkimmingHandler.usual`). */
  usual(kind: KnownKind, line: number, start: number, end: number, mayAlias?: boolean): void {
    const base = this.base;
    switch (kind) {
      case 'user-agent':
        return this.agent(line, this.piece.slice(start, end), false);
      case 'sitemap':
        return this.#sitemaps().add(base + start, base + end);
      default:
        return this.rule(kind === 'allow', line, base + start, base + end, undefined, mayAlias);
    }
  }

  /** Room for the rules the byte lane is about to hand over (see `SkimmingHandler.expectRules`). */
  expectRules(count: number): void {
    this.result.rules.reserve(count);
  }

  /** A run of usual allow and disallow lines from the byte lane (see `SkimmingHandler.usualRules`). */
  usualRules(records: Int32Array, at: number, count: number, mayAlias: boolean): void {
    if (this.current >= 0 && keepsEveryRule(this.profile)) {
      this.result.rules.addRecords(records, at, count, this.base, mayAlias);
      return;
    }
    // Rules before any group, or a profile that sets some aside: one at a time.
    const base = this.base;
    eachLaneRule(records, at, count, (allow, line, start, end, hint) =>
      this.rule(allow, line, base + start, base + end, undefined, hint),
    );
  }

  #sitemaps(): SitemapTable {
    return (this.result.sitemaps ??= new SitemapTable(this.source));
  }

  #extras(): ExtraTable {
    return (this.result.extras ??= new ExtraTable(this.source));
  }

  /** A usual user-agent line from the byte lane (see `SkimmingHandler.usualAgent`). */
  usualAgent(
    line: number,
    start: number,
    end: number,
    tokenEnd: number,
    ascii: boolean,
    lowerCase: boolean,
  ): void {
    const value = this.piece.slice(start, end);
    if (!ascii || !this.profile.productTokens) return this.agent(line, value, false);
    const groups = this.#groupForAgent();
    // ASCII is its own display, bytes or text; the token is the profile's, as measured.
    let token = GLOBAL_TOKEN;
    if (!this.profile.isGlobalAgent(value)) {
      token = tokenEnd === end ? value : this.piece.slice(start, tokenEnd);
      if (!lowerCase) token = token.toLowerCase();
    }
    groups.addAgent(value, line, token);
  }

  /** The group table, a group started if a user-agent line starts one here. */
  #groupForAgent(): GroupTable {
    const { groups, rules } = this.result;
    // A user-agent line after rules (or outside any group) starts a new group.
    if (this.current < 0 || rules.size > groups.ruleStart[this.current]!) {
      this.current = groups.startGroup(rules.size);
    }
    return groups;
  }

  private agent(line: number, value: string, valueIsBytes: boolean): void {
    const groups = this.#groupForAgent();
    // `*` alone, the most common value, is its own display in every mode.
    if (value === GLOBAL_TOKEN && !valueIsBytes) return groups.addAgent(value, line, GLOBAL_TOKEN);
    // The name is taken from the value as text, so text and bytes name groups alike.
    const display = this.source.display(value, valueIsBytes);
    const token = this.profile.isGlobalAgent(value)
      ? GLOBAL_TOKEN
      : this.profile.agentToken(this.source.shownOf(display, valueIsBytes));
    groups.addAgent(display, line, token);
  }

  /**
   * An allow or disallow line; `bytes`: its value, where the line cut split a character;
   * `mayAlias`: whether an allow value holds `/index.htm`, where the tokenizer looked.
   */
  rule(
    allow: boolean,
    line: number,
    start: number,
    end: number,
    bytes?: string,
    mayAlias?: boolean,
  ): void {
    const { rules, orphanRuleLines } = this.result;
    if (this.current < 0) {
      if (orphanRuleLines === NO_LINES) this.result.orphanRuleLines = [line];
      else orphanRuleLines.push(line);
      return;
    }
    // The pattern is made from the text when a lookup first needs it (see RuleTable).
    const id = rules.add(allow, line, start, end, bytes, mayAlias);
    const profile = this.profile;
    // Google keeps empty rules: they match with priority 0, never decide, but can name the
    // matching line. In the 1996 standard an empty Disallow excludes nothing (and an empty
    // Allow matches every path).
    if (profile.isInertRule(allow, start === end && bytes === undefined)) {
      (rules.inert ??= new Set()).add(id);
    }
  }
}

/** The profile never sets a rule aside as inert (Google and RFC 9309 keep every one). */
function keepsEveryRule(profile: Profile): boolean {
  return (
    !profile.isInertRule(true, true) &&
    !profile.isInertRule(false, true) &&
    !profile.isInertRule(true, false) &&
    !profile.isInertRule(false, false)
  );
}

/** Keeps a sample builder, and so its class and its tables', alive between parses (see shapes.ts). */
export function keepBuilderShape(): void {
  const source = Source.ofBytes('');
  keepShapeOf(new GroupBuilder(PROFILES.google, source));
  // Made only for files that have such lines (see `ParsedFile`).
  keepShapeOf(new SitemapTable(source));
  keepShapeOf(new ExtraTable(source));
}
