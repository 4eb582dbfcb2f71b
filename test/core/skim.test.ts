/**
 * parse() tokenizes most lines through the skimming tokenizer's own lane (blank lines, lines
 * that can only be unknown keys, user-agent/allow/disallow lines in their usual form) and the
 * rest through the full tokenizer. Whatever the lines look like, the groups must be the ones
 * the full tokenizer's directives make.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parse } from '../../src/core/index.ts';
import { tokenizeBody } from '../../src/core/tokenizer-entry.ts';

const space = fc.constantFrom('', ' ', '\t', '  ', '\v', '\f');
const key = fc.constantFrom(
  'User-agent',
  'user-agent',
  'USER-AGENT',
  'useragent',
  'Allow',
  'allow',
  'ALLOW',
  'Disallow',
  'disallow',
  'DisAllow',
  'disalow',
  'Sitemap',
  'Crawl-delay',
  'x',
  '',
);
const separator = fc.constantFrom(':', ': ', ' :', ' ', '::', '');
const value = fc.constantFrom('', '/', '/a', '/a b', '*', 'Bot', 'bot', '/é', '/x#y', '#c', '/\0z');
const comment = fc.constantFrom('', '#', '# note', ' #x');
const line = fc
  .tuple(space, key, separator, space, value, space, comment)
  .map((parts) => parts.join(''));
const eol = fc.constantFrom('\n', '\r\n', '\r', '\n\n', '\r\r\n');
const body = fc
  .array(fc.tuple(line, eol), { maxLength: 16 })
  .map((lines) => lines.map(([l, e]) => l + e).join(''));

/** tokenizeBody gives values as byte strings: read as UTF-8, as the parse shows them. */
const shown = (bytes: string) =>
  new TextDecoder().decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0)));

/** Groups as Google delimits them, built from the full tokenizer's directives alone. */
function groupsFromDirectives(text: string) {
  const groups: { agents: string[]; agentLines: number[]; rules: [string, number, string][] }[] =
    [];
  const orphans: number[] = [];
  let current: (typeof groups)[number] | undefined;
  tokenizeBody(text, {
    directive(d) {
      if (d.kind === 'user-agent') {
        if (!current || current.rules.length > 0)
          groups.push((current = { agents: [], agentLines: [], rules: [] }));
        current.agents.push(shown(d.value));
        current.agentLines.push(d.line);
      } else if (d.kind === 'allow' || d.kind === 'disallow') {
        if (current) current.rules.push([d.kind, d.line, shown(d.value)]);
        else orphans.push(d.line);
      }
    },
  });
  return { groups, orphans };
}

describe('the skimming tokenizer', () => {
  test('gives the groups the full tokenizer gives, on lines of every shape', () => {
    fc.assert(
      fc.property(body, (text) => {
        const robots = parse(text);
        const expected = groupsFromDirectives(text);
        const actual = robots.groups.map((g) => ({
          agents: [...g.agents],
          agentLines: [...g.agentLines],
          rules: g.rules.map((r) => [r.kind, r.line, r.value] as [string, number, string]),
        }));
        assert.deepEqual(actual, expected.groups);
        assert.deepEqual([...robots.orphanRuleLines], expected.orphans);
        // The same from the bytes (the byte path skims too).
        assert.deepEqual(parse(new TextEncoder().encode(text)).groups, robots.groups);
      }),
      { numRuns: 2000 },
    );
  });
});
