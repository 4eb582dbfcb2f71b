/**
 * The `Robots-Tag` response header of draft-illyes-repext: a Structured Fields List whose
 * members are product tokens (or `*`) with the rules for them as parameters, e.g.
 * `Robots-Tag: *;nosnippet, ExampleBot;noindex`. All its rules are restrictive, so they join
 * the meta tags' and X-Robots-Tag's, and the most restrictive wins as before.
 */
import { parseStructuredList as parseList } from '../core/internal.ts';
import type { DirectiveSource } from './directive-source.ts';

/** The least parsing limit the draft allows, and the one used: 8 KiB of the field. */
export const ROBOTS_TAG_LIMIT = 8 * 1024;

/**
 * The rules of each `Robots-Tag` value, scoped to their product token (lower-cased; `*` for
 * every crawler). A value over the limit is read up to it, its last partial member dropped
 * (complete members before it are honoured); a value that is no valid List gives none.
 */
export function robotsTagDirectives(values: readonly string[]): DirectiveSource[] {
  const out: DirectiveSource[] = [];
  values.forEach((value, i) => {
    let text = value;
    if (text.length > ROBOTS_TAG_LIMIT) {
      const complete = text[ROBOTS_TAG_LIMIT] === ',';
      text = text.slice(0, ROBOTS_TAG_LIMIT);
      if (!complete) text = text.slice(0, Math.max(0, text.lastIndexOf(',')));
    }
    for (const member of parseList(text) ?? []) {
      if (member.item.type !== 'token') continue;
      const token = member.item.value;
      const agent = token === '*' ? '*' : token.toLowerCase();
      for (const rule of member.params) {
        out.push({ kind: 'header', field: 'Robots-Tag', agent, text: rule, header: i + 1 });
      }
    }
  });
  return out;
}
