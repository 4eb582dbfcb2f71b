import { wellFormed } from './bytes.ts';
import { IntColumn } from './columns.ts';

/**
 * A parsed file, column by column. Thousands of small objects (one per rule, per agent, per
 * group) are most of what a parsed robots.txt would otherwise weigh, so the parse keeps
 * parallel arrays and the public objects are made only when asked for. A group's agents and
 * its rules are contiguous, so a group is two ranges.
 */

/** An allow or disallow line of a group. */
export interface Rule {
  readonly kind: 'allow' | 'disallow';
  readonly line: number;
  /** The value as written. */
  readonly value: string;
  /** What is matched: the value after the profile's normalisation (Google: %-escaped). */
  readonly pattern: string;
  /** Octets of `pattern`: the rule's weight in longest-match precedence. */
  readonly priority: number;
}

const ALLOW_BIT = 2;
const WILD_BIT = 1;

/** Rule columns. Rule ids are positions in file order. */
export class RuleTable {
  patterns: string[] = [];
  /** line × 4 + 2 for allow + 1 when the pattern has `*` or ends in `$`. */
  readonly packed = new IntColumn();
  /** Values as written, only where they differ from the pattern. */
  values: (string | undefined)[] | undefined;
  /** Google's index.html aliases, by the rule they are derived from (rare: made on demand). */
  aliases: Map<number, string> | undefined;
  /** Rules that can never match (legacy: an empty Disallow), made on demand. */
  inert: Set<number> | undefined;
  /** `wild`: the pattern has `*` or ends in `$` (and the profile has wildcards). */
  add(allow: boolean, line: number, value: string, pattern: string, wild: boolean): number {
    const id = this.patterns.length;
    this.patterns.push(pattern);
    this.packed.push(line * 4 + (allow ? ALLOW_BIT : 0) + (wild ? WILD_BIT : 0));
    if (value !== pattern) (this.values ??= [])[id] = value;
    return id;
  }

  get size(): number {
    return this.patterns.length;
  }
  line(id: number): number {
    return Math.floor(this.packed.at(id) / 4);
  }
  isAllow(id: number): boolean {
    return (this.packed.at(id) & ALLOW_BIT) !== 0;
  }
  /** The pattern needs more than a prefix test (it has `*` or ends in `$`). */
  isWild(id: number): boolean {
    return (this.packed.at(id) & WILD_BIT) !== 0;
  }
  /** Copies the columns to exact-size arrays once parsing is done. */
  seal(): void {
    this.patterns = this.patterns.slice();
    this.packed.seal();
    if (this.values) this.values.length = this.patterns.length;
  }

  rule(id: number): Rule {
    const pattern = this.patterns[id]!;
    return {
      kind: this.isAllow(id) ? 'allow' : 'disallow',
      line: this.line(id),
      // Values of text input may hold lone surrogates: shown as U+FFFD, as their bytes are.
      value: wellFormed(this.values?.[id] ?? pattern),
      pattern,
      priority: pattern.length,
    };
  }
}

/** The token stored for a `*` agent (never a product token, never a legacy name). */
export const GLOBAL_TOKEN = '*';

/** User-agent lines, and groups as ranges of them and of the rules. */
export class GroupTable {
  /** Per agent line: the value as written, its line, its lower-cased match name. */
  agentValues: string[] = [];
  agentLines: number[] = [];
  agentTokens: string[] = [];
  /** Per group: index of its first agent line and of its first rule. */
  agentStart: number[] = [];
  ruleStart: number[] = [];

  get size(): number {
    return this.agentStart.length;
  }

  startGroup(ruleId: number): number {
    this.agentStart.push(this.agentValues.length);
    this.ruleStart.push(ruleId);
    return this.agentStart.length - 1;
  }

  addAgent(value: string, line: number, token: string): void {
    this.agentValues.push(value);
    this.agentLines.push(line);
    this.agentTokens.push(token);
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

  /** Rules of group `g`: [first, end). */
  ruleRange(g: number, ruleCount: number): [number, number] {
    return [this.ruleStart[g]!, this.ruleStart[g + 1] ?? ruleCount];
  }

  isGlobal(g: number): boolean {
    const [first, end] = this.agentRange(g);
    for (let a = first; a < end; a++) if (this.agentTokens[a] === GLOBAL_TOKEN) return true;
    return false;
  }

  seal(): void {
    this.agentValues = this.agentValues.slice();
    this.agentLines = this.agentLines.slice();
    this.agentTokens = this.agentTokens.slice();
    this.agentStart = this.agentStart.slice();
    this.ruleStart = this.ruleStart.slice();
  }
}
