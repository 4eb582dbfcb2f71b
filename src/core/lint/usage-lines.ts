/**
 * AI-usage lines: `Content-Usage` (IETF AIPREF) statements must be Structured Fields
 * Dictionaries with `y`/`n` Tokens, and `Content-Signal` (Cloudflare) entries `name=yes|no`
 * or `use=...`; anything else is a preference no reader can act on.
 */
import { splitRule, USAGE_LABELS } from '../match/content-usage.ts';
import { parseDictionary } from '../match/structured-fields.ts';
import type { Add } from './types.ts';

export function checkUsageLine(
  key: string,
  value: string,
  line: number,
  column: number,
  add: Add,
): void {
  if (key === 'content-usage') {
    const { statement } = splitRule(value);
    const members = parseDictionary(statement);
    if (!members) {
      const upper = /[A-Z]/.test(statement) ? ' (keys are lower case)' : '';
      add(
        'content-usage-invalid',
        line,
        column,
        `"${statement}" is not a Structured Fields Dictionary${upper}: every usage preference of this rule is unknown`,
      );
      return;
    }
    for (const label of USAGE_LABELS) {
      const item = members.get(label);
      if (item && !(item.type === 'token' && (item.value === 'y' || item.value === 'n'))) {
        add(
          'content-usage-invalid',
          line,
          column,
          `${label} is neither y nor n: its preference is unknown`,
        );
      }
    }
  } else if (key === 'content-signal') {
    for (const entry of value.split(',')) {
      const [name = '', setting] = entry.split('=').map((part) => part.trim().toLowerCase());
      const ok =
        name !== '' && (name === 'use' ? Boolean(setting) : setting === 'yes' || setting === 'no');
      if (!ok && entry.trim() !== '') {
        add(
          'content-signal-invalid',
          line,
          column,
          `"${entry.trim()}" is not "name=yes", "name=no" or "use=...": readers ignore it`,
        );
      }
    }
  }
}
