/**
 * `repkit diff --format markdown`: the verdict changes a pull request makes, grouped by
 * crawler and by the rules that decided them, as a comment to post on it.
 */
import type { RobotsComparison } from '../fetch/internal.ts';

type ChangeGroup = ReturnType<RobotsComparison['groups']>[number];
type SideVerdict = ChangeGroup['before'];

/** A table cell's text: pipes and line breaks would end the cell or the row. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

/**
 * `text` as a code span GitHub shows as it is (links, images, @mentions and markup inert):
 * fenced by one backtick more than its longest run of them, padded where it starts or ends
 * with one (CommonMark's code spans).
 */
export function codeSpan(text: string): string {
  if (text.trim() === '') return '(empty)';
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 0x60 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(longest + 1);
  const pad =
    text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' '))
      ? ' '
      : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function rule(v: SideVerdict): string {
  return sideText(v, (rule) => `${rule.kind} ${codeSpan(rule.value)}`);
}

/**
 * A side of a change in words: its deciding line and rule (`ruleWords`), said to be cut by
 * the 500 KiB limit where it is, or its reason, with what the file is when it is no
 * robots.txt at all.
 */
export function sideText(
  v: SideVerdict,
  ruleWords: (rule: NonNullable<SideVerdict['rule']>) => string,
): string {
  if (v.rule)
    return `line ${v.line}: ${ruleWords(v.rule)}${v.lineCut ? ' (cut by the 500 KiB limit)' : ''}`;
  return v.notRobotsTxt ? `${v.reason}: not a robots.txt (${v.notRobotsTxt})` : v.reason;
}

export function diffMarkdown(
  groups: readonly ChangeGroup[],
  changes: number,
  compared: string,
  agents: readonly string[],
): string {
  const head = `### robots.txt: ${changes === 0 ? 'no verdict changes' : `${changes} verdict change(s)`}\n\nCompared ${compared} × ${agents.length} crawler(s): ${agents.map((a) => codeSpan(a)).join(', ')}.\n`;
  if (groups.length === 0) return head;
  const rows = groups.map(
    (g) =>
      `| ${cell(codeSpan(g.agent))} | ${g.after.allowed ? 'now allowed' : '**now blocked**'} | ${g.count} | ${cell(rule(g.before))} | ${cell(rule(g.after))} | ${cell(codeSpan(g.example))} |`,
  );
  return `${head}\n| Crawler | Change | URLs | Before | After | Example |\n| --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}\n`;
}
