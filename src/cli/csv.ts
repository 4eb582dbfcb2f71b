/**
 * `repkit batch --format csv`: one row per URL, in a spreadsheet's terms (RFC 4180), and
 * never a formula: a cell a spreadsheet would run (`=`, `+`, `-`, `@`, a tab or a carriage
 * return first, OWASP's list) starts with `'`.
 */
import type { CheckRecord } from './commands/check.ts';

/**
 * The columns, in order: a rejected input line fills `url` and `error` only. New columns go
 * at the end, so that a reader taking columns by position keeps working.
 */
export const CSV_COLUMNS = [
  'url',
  'allowed',
  'line',
  'reason',
  'rule',
  'requestUrl',
  'agent',
  'robotsUrl',
  'status',
  'source',
  'error',
  'errorCode',
] as const;

/** One cell: quoted when it holds a comma, a quote or a line break; defused when a formula. */
export function csvCell(value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header row. */
export function csvHeader(): string {
  return CSV_COLUMNS.join(',');
}

/** A record's row, or a rejected line's (`url` and `error`). */
export function csvRow(record: CheckRecord | { url: string; error: string }): string {
  const rule =
    'rule' in record && record.rule
      ? `${record.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${record.rule.value}`
      : undefined;
  const r = record as Partial<CheckRecord> & { url: string; error?: string };
  const cells: Record<(typeof CSV_COLUMNS)[number], string | number | boolean | undefined> = {
    url: r.url,
    allowed: r.allowed,
    line: r.line,
    reason: r.reason,
    rule,
    requestUrl: r.requestUrl,
    agent: r.agent?.join(' '),
    robotsUrl: r.robotsUrl,
    status: r.status,
    source: r.source,
    error: r.error,
    errorCode: r.errorCode,
  };
  return CSV_COLUMNS.map((column) => csvCell(cells[column])).join(',');
}
