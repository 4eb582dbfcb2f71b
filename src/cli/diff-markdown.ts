/**
 * `repkit diff --format markdown`: the verdict changes a pull request makes, grouped by
 * crawler and by the rules that decided them, as a comment to post on it.
 */
import type { ChangeGroup, SideVerdict } from '../fetch/internal.ts';

/** A table cell's text: pipes and line breaks would end the cell or the row. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

function rule(v: SideVerdict): string {
  return v.rule ? `line ${v.line}: ${v.rule.kind} \`${v.rule.value}\`` : v.reason;
}

export function diffMarkdown(
  groups: readonly ChangeGroup[],
  changes: number,
  compared: string,
  agents: readonly string[],
): string {
  const head = `### robots.txt: ${changes === 0 ? 'no verdict changes' : `${changes} verdict change(s)`}\n\nCompared ${compared} × ${agents.length} crawler(s): ${agents.map((a) => `\`${a}\``).join(', ')}.\n`;
  if (groups.length === 0) return head;
  const rows = groups.map(
    (g) =>
      `| \`${cell(g.agent)}\` | ${g.after.allowed ? 'now allowed' : '**now blocked**'} | ${g.count} | ${cell(rule(g.before))} | ${cell(rule(g.after))} | \`${cell(g.example)}\` |`,
  );
  return `${head}\n| Crawler | Change | URLs | Before | After | Example |\n| --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}\n`;
}
