import { wellFormed, type ByteString } from '../text/bytes.ts';
import { GLOBAL_TOKEN, isWildPattern, type Profile } from '../profiles/index.ts';
import type { IndexedRules } from '../match/indexed-rules.ts';
import { matchesPatternIn, matchesRestIn } from '../match/wildcard.ts';
import type { PathChars } from '../match/path-chars.ts';
import { IntColumn, NO_VALUES } from './columns.ts';
import type { Source, Stretch } from '../text/source.ts';
import { LANE_RULE } from '../tokens/directive.ts';

/**
 * A parsed file, column by column. Thousands of small objects (one per rule, per agent, per
 * group) are most of what a parsed robots.txt would otherwise weigh, so the parse keeps
 * parallel arrays and the public objects are made only when asked for. A group's agents and
 * its rules are contiguous, so a group is two ranges.
 */

/** An allow or disallow line of a group. */
export interface Rule {
  /** An `Allow:` or a `Disallow:` line. */
  readonly kind: 'allow' | 'disallow';
  /** Its line (1-based). */
  readonly line: number;
  /** The value as written. */
  readonly value: string;
  /** What is matched: the value after the profile's normalisation (Google: %-escaped). */
  readonly pattern: string;
  /** Octets of `pattern`: the rule's weight in longest-match precedence. */
  readonly priority: number;
}

/** The rule cells' allow bit, the byte lane's (its rule records are this table's). */
const ALLOW_BIT = LANE_RULE.allowBit;
/** What a value must hold for Google's index.html alias (see `Profile.aliasOf`). */
const ALIAS_PART = '/index.htm';
/** Rules coming at once that are worth typed storage made for them (see `reserve`). */
const RESERVED_AT_LEAST = 64;

/**
 * Rule columns. Rule ids are positions in file order. A rule is kept as where its value is
 * in the text; its pattern (the normalised value) is made when a lookup or a view asks for
 * it: most files name many crawlers, and a crawler only ever needs the patterns of the
 * groups that apply to it (its RuleIndex keeps those).
 */
export class RuleTable implements IndexedRules {
  /** Per rule, three cells: start and end of the value in the source text, line × 2 + 1 for allow. */
  readonly #cells = new IntColumn();
  #size = 0;
  /** Values that are bytes although the text is not (a character split by the line cut). */
  #byteValues: Map<number, ByteString> | undefined;
  /**
   * Whether any rule can have an alias (see `mayHoldAliases`): false while every allow value
   * was looked at and none holds `/index.htm`; undefined while not known.
   */
  #aliasesPossible: boolean | undefined = false;
  /** Rules that can never match (legacy: an empty Disallow), made on demand. */
  inert: Set<number> | undefined;
  /** The stretch of the source a value was read from last (see `Source.stretchAt`). */
  #stretch: Stretch | undefined;

  /** @param source what was tokenized: the spans refer to its text. */
  constructor(
    private readonly source: Source,
    private readonly profile: Profile,
  ) {}

  /**
   * Adds a rule whose value is `source[start, end)`, or `bytes` when given; `mayAlias`:
   * whether an allow value holds `/index.htm`, where the tokenizer looked (undefined: it did
   * not, and the text is searched when aliases are first asked for).
   */
  add(
    allow: boolean,
    line: number,
    start: number,
    end: number,
    bytes?: ByteString,
    mayAlias?: boolean,
  ): number {
    const id = this.#size++;
    this.#cells.push3(start, end, line * 2 + (allow ? ALLOW_BIT : 0));
    if (bytes !== undefined) {
      (this.#byteValues ??= new Map()).set(id, bytes);
      mayAlias = undefined;
    }
    if (allow && mayAlias !== false && this.#aliasesPossible !== true) {
      this.#aliasesPossible = mayAlias;
    }
    return id;
  }

  /**
   * Room for `count` more rules, added next by `addRecords`: typed storage of that size at
   * once for many (see `IntColumn.reserve`); a few stay in a plain array, cheaper to make.
   */
  reserve(count: number): void {
    if (count >= RESERVED_AT_LEAST) this.#cells.reserve(3 * count);
  }

  /**
   * Adds `count` usual rules from the byte lane's records (see `SkimmingHandler.usualRules`),
   * their value offsets `base` on in the source: `add` for each, without a call each.
   */
  addRecords(
    records: Int32Array,
    at: number,
    count: number,
    base: number,
    mayAlias: boolean,
  ): void {
    // The records are this table's cells, copied as they are, but for a large body's piece
    // (offsets from the piece's start) and an index.html hint: those are rewritten where they
    // stand (the lane's scratch memory) first, so the column is only ever appended to.
    if (base !== 0 || mayAlias) {
      for (let i = at; i < at + 3 * count; i += 3) {
        records[i] = base + records[i]!;
        records[i + 1] = base + (records[i + 1]! & LANE_RULE.endMask);
      }
    }
    this.#cells.appendFrom(records, at, 3 * count);
    this.#size += count;
    // The lane looked at every allow value: only one holding `/index.htm` makes aliases
    // possible (stored on every call, so the store is not first met on a rare hint).
    this.#aliasesPossible = mayAlias || this.#aliasesPossible;
  }

  get size(): number {
    return this.#size;
  }

  /**
   * Rule `id`'s index.html alias under the profile (Google: `Allow: /d/index.html` also
   * allows `/d/`), or undefined. Looked for rule by rule over a crawler's groups when it
   * first checks a path an alias could match, not over the whole file.
   */
  alias(id: number): string | undefined {
    const aliasOf = this.profile.aliasOf;
    if (!aliasOf || !this.isAllow(id) || !this.mayHoldAliases() || !this.#holds(id, ALIAS_PART)) {
      return undefined;
    }
    // Made anew each time: the index of a crawler's aliases keeps the patterns it makes.
    return aliasOf(this.pattern(id));
  }

  /**
   * Whether any rule can have an alias: an allow value holds `/index.htm` (which
   * normalisation never makes). The tokenizer's byte lane looks as it reads; otherwise the
   * text (and any value the line cut split) is searched once, natively.
   */
  mayHoldAliases(): boolean {
    if (this.#aliasesPossible === undefined) {
      let found = this.source.includes(ALIAS_PART);
      for (const bytes of this.#byteValues?.values() ?? []) found ||= bytes.includes(ALIAS_PART);
      this.#aliasesPossible = found;
    }
    return this.#aliasesPossible;
  }

  /**
   * Whether rule `id`'s value as written holds `part` (which starts with `/`): a filter for
   * `alias`, since normalisation only rewrites %-escapes and non-ASCII octets. It reads the
   * value alone (a search of the text could run on past it) and makes no string.
   */
  #holds(id: number, part: string): boolean {
    const bytes = this.#byteValues?.get(id);
    if (bytes !== undefined) return bytes.includes(part);
    const start = this.#cells.at(3 * id);
    const { text, start: base } = this.#stretchOf(start);
    const last = this.#cells.at(3 * id + 1) - part.length - base;
    for (let i = start - base; i <= last; i++) {
      if (text.charCodeAt(i) === 0x2f && text.startsWith(part, i)) return true;
    }
    return false;
  }

  /**
   * The stretch of the source that holds offset `at`: the one read last, most often (rules
   * are read in file order), so a large body's text is never joined for a check.
   */
  #stretchOf(at: number): Stretch {
    const last = this.#stretch;
    if (last !== undefined && at >= last.start && at < last.end) return last;
    return (this.#stretch = this.source.stretchAt(at));
  }

  line(id: number): number {
    return this.#cells.at(3 * id + 2) >> 1;
  }
  isAllow(id: number): boolean {
    return (this.#cells.at(3 * id + 2) & ALLOW_BIT) !== 0;
  }
  /** Characters of the value as written (for a value that is its own pattern, its priority). */
  valueLength(id: number): number {
    return this.#cells.at(3 * id + 1) - this.#cells.at(3 * id);
  }

  /**
   * `matchInPlace` for the rules `first..first + count`, as a selection's first checks run
   * it: writes to `out` the offset `k` of each rule that matches and `~k` of each it cannot
   * tell about (make its pattern), in order; returns how many it wrote. Most rules differ
   * from the path in their first two characters: that is tested first, without a call. A
   * value equal to the one tested before it (repeated lines) answers as that one did, so a
   * file of one wildcard rule repeated costs one match. `made`: the patterns the index made
   * already, by offset: a rule that has one is matched by it (natively), not read again.
   */
  scanInPlace(
    first: number,
    count: number,
    path: string,
    limit: number,
    held: PathChars | undefined,
    out: number[],
    made: readonly (string | undefined)[],
  ): number {
    const cells = this.#cells.cells;
    const p0 = path.charCodeAt(0);
    // No read past the path's end (the engine drops its fast code on one): -1 matches nothing.
    const p1 = path.length > 1 ? path.charCodeAt(1) : -1;
    let written = 0;
    let previous = -1;
    let match: 1 | 0 | -1 = 0;
    // The stretch of the text being read, moved on as the rules' offsets pass its end.
    let text = '';
    let base = 0;
    let stretchEnd = -1;
    for (let k = 0; k < count; k++) {
      const id = first + k;
      const start = cells[3 * id]!;
      if (cells[3 * id + 1]! - start >= 2) {
        if (start >= stretchEnd || start < base) {
          const stretch = this.#stretchOf(start);
          text = stretch.text;
          base = stretch.start;
          stretchEnd = stretch.end;
        }
        const c0 = text.charCodeAt(start - base);
        const c1 = text.charCodeAt(start - base + 1);
        // A plain character (not `%`, `*`, `$` or non-ASCII) that differs from the path's
        // decides: the pattern's prefix up to it is the value's.
        if (c0 !== p0 ? isPlain(c0) : c1 !== p1 && isPlain(c1)) continue;
      }
      if (k < made.length && made[k] !== undefined) {
        out[written++] = ~k;
        continue;
      }
      if (previous < 0 || !this.sameValue(id, previous)) {
        match = this.matchInPlace(id, path, limit, held);
        previous = id;
      }
      if (match !== 0) out[written++] = match === 1 ? k : ~k;
    }
    return written;
  }

  /** Rules `a` and `b` have the same value as written. */
  sameValue(a: number, b: number): boolean {
    const cells = this.#cells.cells;
    const start = cells[3 * a]!;
    const other = cells[3 * b]!;
    const length = cells[3 * a + 1]! - start;
    if (length !== cells[3 * b + 1]! - other) return false;
    if (this.#byteValues && (this.#byteValues.has(a) || this.#byteValues.has(b))) return false;
    const { text, start: base } = this.#stretchOf(start);
    const { text: otherText, start: otherBase } = this.#stretchOf(other);
    for (let i = 0; i < length; i++) {
      if (text.charCodeAt(start - base + i) !== otherText.charCodeAt(other - otherBase + i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Matches a rule against `path` where its value stands in the text, for profiles whose
   * normalisation changes only `%` escapes and non-ASCII characters, one character at a time
   * (`plainValuesArePatterns`): 1 for a match, 0 for none, -1 when it cannot tell (the value
   * holds `%` or non-ASCII before a difference is found, or was cut inside a character: make
   * the pattern). A difference before any such character decides, since the pattern's prefix
   * up to there is the value's; at the first wildcard a value that is its own pattern is
   * matched as one, still where it stands. A value longer than `limit` is only read, as far
   * as `limit`, for a difference: one that matches that far, or holds a wildcard, is worth
   * its pattern (compared natively, and kept for the next checks), while most differ from
   * the path early (a file of a thousand long rules under one directory is rejected a prefix
   * at a time, not made into a thousand patterns). `held`: what the path holds, for a long
   * path (see path-chars.ts).
   */
  matchInPlace(id: number, path: string, limit: number, held?: PathChars): 1 | 0 | -1 {
    const cells = this.#cells.cells;
    const start = cells[3 * id]!;
    const end = cells[3 * id + 1]!;
    if (this.#byteValues?.has(id)) return -1;
    const long = end - start > limit;
    const stretch = this.#stretchOf(start);
    const text = stretch.text;
    const s = start - stretch.start;
    const e = end - stretch.start;
    // A long value is read for a difference in its first `limit` characters only: past them
    // its pattern, compared natively, is cheaper than reading on. Computed on every call, not
    // on the rare long branch (see `IntColumn.push`).
    const limitAt = s + limit;
    const readTo = limitAt < e ? limitAt : e;
    const wildcards = this.profile.wildcards;
    const last = e - 1;
    for (let i = s; i < readTo; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x25 || c >= 0x80) return -1;
      // The position is compared before the character, for every value's last one: a `$`
      // met first after the engine optimized this would find the comparison unseen.
      if (wildcards && (c === 0x2a || (i === last && c === 0x24))) {
        if (long) return -1;
        // A short path: the rest of the value is read once, as it is matched.
        if (held === undefined) return matchesRestIn(text, i, e, path, i - s);
        for (let j = i + 1; j < e; j++) {
          const d = text.charCodeAt(j);
          if (d === 0x25 || d >= 0x80) return -1;
        }
        return matchesPatternIn(text, s, e, path, held) ? 1 : 0;
      }
      if (i - s >= path.length || path.charCodeAt(i - s) !== c) return 0;
    }
    return long ? -1 : 1;
  }

  /** Whether a pattern needs more than a prefix test under this profile. */
  isWildPattern(pattern: string): boolean {
    return isWildPattern(this.profile, pattern);
  }

  /**
   * The pattern that is matched: the value after the profile's normalisation. Made anew on
   * each call: the index keeps the patterns it uses, and nothing else needs them often.
   */
  pattern(id: number): string {
    const { value, isBytes } = this.#written(id);
    return this.profile.normalizePattern(this.source.bytes(value, isBytes));
  }

  /** The value as written, as shown to people (bytes decoded, lone surrogates as U+FFFD). */
  value(id: number): string {
    const { value, isBytes } = this.#written(id);
    return this.source.shown(value, isBytes);
  }

  /** The value as it stands in the text, or its bytes where the line cut split a character. */
  #written(id: number): { value: string; isBytes: boolean } {
    const bytes = this.#byteValues?.get(id);
    if (bytes !== undefined) return { value: bytes, isBytes: true };
    const start = this.#cells.at(3 * id);
    const { text, start: base } = this.#stretchOf(start);
    return { value: text.slice(start - base, this.#cells.at(3 * id + 1) - base), isBytes: false };
  }

  /** Gives back unused capacity once parsing is done. */
  seal(): void {
    this.#cells.seal();
  }

  rule(id: number): Rule {
    const pattern = this.pattern(id);
    return {
      kind: this.isAllow(id) ? 'allow' : 'disallow',
      line: this.line(id),
      value: this.value(id),
      pattern,
      priority: pattern.length,
    };
  }
}

export { GLOBAL_TOKEN };

/**
 * User-agent lines, and groups as ranges of them and of the rules.
 *
 * A column's first value is an array literal of one, the size it is sealed at: most files
 * have one group of one or two lines, and a column grown by `push` from empty is made with
 * room for sixteen values and then copied to its size by `seal`, three arrays where one does.
 * Memory a parse allocates is what a fresh process pays for page by page (see
 * docs/benchmarks.md, "Allocation").
 */
export class GroupTable {
  /** Per agent line: the value as written, its line, its lower-cased match name. */
  agentValues: string[] = NO_VALUES;
  agentLines: number[] = NO_VALUES;
  agentTokens: string[] = NO_VALUES;
  /** Per group: index of its first agent line and of its first rule. */
  agentStart: number[] = NO_VALUES;
  ruleStart: number[] = NO_VALUES;

  get size(): number {
    return this.agentStart.length;
  }

  startGroup(ruleId: number): number {
    const at = this.agentValues.length;
    if (this.agentStart === NO_VALUES) {
      this.agentStart = [at];
      this.ruleStart = [ruleId];
    } else {
      this.agentStart.push(at);
      this.ruleStart.push(ruleId);
    }
    return this.agentStart.length - 1;
  }

  addAgent(value: string, line: number, token: string): void {
    if (this.agentValues === NO_VALUES) {
      this.agentValues = [value];
      this.agentLines = [line];
      this.agentTokens = [token];
    } else {
      this.agentValues.push(value);
      this.agentLines.push(line);
      this.agentTokens.push(token);
    }
  }

  /** Agent lines of group `g`: [first, end). */
  agentRange(g: number): [number, number] {
    return [this.agentStart[g]!, this.agentStart[g + 1] ?? this.agentValues.length];
  }

  /** The user-agent values of group `g`, as written (a lone surrogate shown as U+FFFD). */
  agentsOf(g: number): string[] {
    const [first, end] = this.agentRange(g);
    return this.agentValues.slice(first, end).map(wellFormed);
  }

  /** The first rule of group `g`. */
  firstRule(g: number): number {
    return this.ruleStart[g]!;
  }

  /** The rule after group `g`'s last (`ruleCount` for the last group). */
  ruleEnd(g: number, ruleCount: number): number {
    return this.ruleStart[g + 1] ?? ruleCount;
  }

  /** Rules of group `g`: [first, end). */
  ruleRange(g: number, ruleCount: number): [number, number] {
    return [this.firstRule(g), this.ruleEnd(g, ruleCount)];
  }

  /** Copies grown columns to their size (one of one value is its literal, already so). */
  seal(): void {
    if (this.agentValues.length > 1) {
      this.agentValues = this.agentValues.slice();
      this.agentLines = this.agentLines.slice();
      this.agentTokens = this.agentTokens.slice();
    }
    if (this.agentStart.length > 1) {
      this.agentStart = this.agentStart.slice();
      this.ruleStart = this.ruleStart.slice();
    }
  }
}

/** Not `%`, `*`, `$` or non-ASCII: a character that stands for itself in every profile. */
function isPlain(code: number): boolean {
  return code < 0x80 && code !== 0x25 && code !== 0x2a && code !== 0x24;
}
