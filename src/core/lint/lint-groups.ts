import { quoted } from './quote.ts';
import type { ParsedFile } from '../model/groups.ts';
import type { Add } from './types.ts';
import { splitRule } from '../match/content-usage.ts';
import { literalPrefix } from '../match/pattern.ts';

/**
 * The linter's checks on the group model (the matcher's own tables): user-agents merged
 * across a blank line, a last group without rules, and rules that can never decide.
 */

/** A rule as the shadowing check sees it. */
interface RuleSeen {
  allow: boolean;
  pattern: string;
  line: number;
  column: number;
}

export function checkGroups(
  parsed: ParsedFile,
  blankLines: number[],
  valueColumns: Map<number, number>,
  add: Add,
): void {
  checkMergedAgents(parsed, blankLines, add);
  checkLastGroup(parsed, add);
  // Rules are compared within what one crawler sees: all groups naming it, merged.
  const byToken = groupsByToken(parsed);
  checkSplitGroups(parsed, byToken, add);
  checkRules(parsed, byToken, valueColumns, add);
}

/** A blank line between two user-agent lines of one group does not split it. */
function checkMergedAgents(parsed: ParsedFile, blankLines: number[], add: Add): void {
  const { groups } = parsed;
  for (let g = 0; g < groups.size; g++) {
    const [first, end] = groups.agentRange(g);
    for (let a = first + 1; a < end; a++) {
      const before = groups.agentLines[a - 1]!;
      const here = groups.agentLines[a]!;
      if (blankLines.some((b) => b > before && b < here)) {
        add(
          'merged-user-agents',
          here,
          1,
          `a blank line does not end a group: this user-agent joins line ${before}'s group`,
          [before],
        );
      }
    }
  }
}

/** The last group without rules: its crawlers may fetch everything. */
function checkLastGroup(parsed: ParsedFile, add: Add): void {
  const { groups, rules } = parsed;
  const last = groups.size - 1;
  if (last < 0) return;
  const [ruleFirst, ruleEnd] = groups.ruleRange(last, rules.size);
  if (ruleFirst !== ruleEnd) return;
  const [agentFirst, agentEnd] = groups.agentRange(last);
  const names = groups.agentTokens.slice(agentFirst, agentEnd).join(', ');
  add(
    'group-without-rules',
    groups.agentLines[agentFirst]!,
    1,
    `the group for ${names} has no rules: those crawlers may fetch everything, and the * group does not apply to them`,
  );
}

/** Per crawler token, the groups naming it, in file order. */
function groupsByToken(parsed: ParsedFile): Map<string, number[]> {
  const { groups } = parsed;
  const byToken = new Map<string, number[]>();
  for (let g = 0; g < groups.size; g++) {
    const [first, end] = groups.agentRange(g);
    for (let a = first; a < end; a++) {
      const token = groups.agentTokens[a]!;
      const list = byToken.get(token) ?? [];
      if (list.at(-1) !== g) list.push(g);
      byToken.set(token, list);
    }
  }
  return byToken;
}

/**
 * Google merges every group naming a crawler; a parser that stops at the first (and the
 * 1996 standard) never reads the later ones.
 */
function checkSplitGroups(parsed: ParsedFile, byToken: Map<string, number[]>, add: Add): void {
  const { groups } = parsed;
  for (const [token, merged] of byToken) {
    const name = token === '*' ? '*' : `"${token}"`;
    for (const g of merged.slice(1)) {
      const line = groups.agentLines[groups.agentRange(g)[0]]!;
      const first = groups.agentLines[groups.agentRange(merged[0]!)[0]]!;
      add(
        'split-group',
        line,
        1,
        `another group for ${name} (the first is on line ${first}): Google merges them, but parsers that take the first matching group ignore this one's rules`,
        [first],
      );
    }
  }
}

/** Each crawler's merged rules: Content-Usage lines they make unreachable, and inert rules. */
function checkRules(
  parsed: ParsedFile,
  byToken: Map<string, number[]>,
  valueColumns: Map<number, number>,
  add: Add,
): void {
  const { groups, rules } = parsed;
  const usage = (parsed.extras?.list() ?? []).filter((e) => e.key === 'content-usage');
  const seen = new Set<string>();
  const reported = new Set<string>();
  const once = (key: string) => !reported.has(key) && Boolean(reported.add(key));
  for (const merged of byToken.values()) {
    const key = merged.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    const selected: RuleSeen[] = [];
    for (const g of merged) {
      const [first, end] = groups.ruleRange(g, rules.size);
      for (let id = first; id < end; id++) {
        const line = rules.line(id);
        const column = valueColumns.get(line) ?? 1;
        selected.push({ allow: rules.isAllow(id), pattern: rules.pattern(id), line, column });
      }
    }
    for (const extra of usage) {
      if (extra.group === undefined || !merged.includes(extra.group)) continue;
      const { path } = splitRule(extra.value);
      const blocker = path === '' ? undefined : disallowedUnder(selected, path);
      if (blocker && once(`usage:${extra.line}`)) {
        add(
          'content-usage-unreachable',
          extra.line,
          1,
          `Content-Usage for ${path} never applies: line ${blocker.line} disallows every URL under it, and disallowed URLs carry no usage preference`,
          [blocker.line],
        );
      }
    }
    for (const [code, rule, other] of findInertRules(selected)) {
      if (!once(`${code}:${rule.line}`)) continue;
      const kind = (r: RuleSeen) => (r.allow ? 'allow' : 'disallow');
      add(
        code,
        rule.line,
        rule.column,
        code === 'duplicate-rule'
          ? `the same ${kind(rule)} rule as line ${other.line}`
          : `never decides: ${kind(other)} ${quoted(other.pattern)} (line ${other.line}) matches every URL this rule matches and ${other.pattern.length > rule.pattern.length ? 'is longer' : 'wins the tie'}`,
        [other.line],
      );
    }
  }
}

/**
 * Rules that can never decide a verdict: shadowed by a rule of the other kind that matches
 * every path they match and is longer (or as long and an allow), or repeated. "Matches every
 * path" is decided for prefix rules (no `*` but a trailing one, no `$`) and equal patterns, so
 * every report is certain, though not every inert rule is found.
 */
function* findInertRules(
  rules: RuleSeen[],
): Generator<['shadowed-rule' | 'duplicate-rule', RuleSeen, RuleSeen]> {
  const byPattern = new Map<string, RuleSeen[]>();
  const prefixRules = new Map<string, RuleSeen[]>();
  for (const rule of rules) {
    if (rule.pattern === '') continue;
    byPattern.set(rule.pattern, [...(byPattern.get(rule.pattern) ?? []), rule]);
    // Trailing stars dropped by hand: a regex for it backtracks on a line of stars.
    let cut = rule.pattern.length;
    while (cut > 0 && rule.pattern.charCodeAt(cut - 1) === 0x2a) cut--;
    const prefix = rule.pattern.slice(0, cut);
    if (!prefix.includes('*') && !prefix.endsWith('$')) {
      prefixRules.set(prefix, [...(prefixRules.get(prefix) ?? []), rule]);
    }
  }
  for (const rule of rules) {
    if (rule.pattern === '') continue;
    const twin = byPattern
      .get(rule.pattern)!
      .find((r) => r.allow === rule.allow && r.line < rule.line);
    if (twin) {
      yield ['duplicate-rule', rule, twin];
      continue;
    }
    const start = literalPrefix(rule.pattern, true);
    for (let length = start.length; length >= 0; length--) {
      const cover = prefixRules
        .get(start.slice(0, length))
        ?.find(
          (s) =>
            s.allow !== rule.allow &&
            (s.pattern.length > rule.pattern.length ||
              (s.pattern.length === rule.pattern.length && s.allow)),
        );
      if (cover) {
        yield ['shadowed-rule', rule, cover];
        break;
      }
    }
  }
}

/**
 * The disallow rule that blocks every URL under `path` for these rules, if one does: it
 * matches `path` as a plain prefix, longer than any allow matching `path`, and no allow
 * could re-allow a URL under `path` (none has a literal prefix extending it).
 */
function disallowedUnder(rules: readonly RuleSeen[], path: string): RuleSeen | undefined {
  const plain = (r: RuleSeen) => !r.pattern.includes('*') && !r.pattern.endsWith('$');
  const blocker = rules
    .filter((r) => !r.allow && r.pattern !== '' && plain(r) && path.startsWith(r.pattern))
    .sort((a, b) => b.pattern.length - a.pattern.length)[0];
  if (!blocker) return undefined;
  const reallows = rules.some(
    (r) =>
      r.allow &&
      r.pattern.length >= blocker.pattern.length &&
      (literalPrefix(r.pattern, true).startsWith(path) ||
        path.startsWith(literalPrefix(r.pattern, true))),
  );
  return reallows ? undefined : blocker;
}
