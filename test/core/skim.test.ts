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

/** Lines of a page served as robots.txt: most cannot begin a key; a few can, or are extras. */
const pageLine = fc.constantFrom(
  '<html>',
  '  <div class="a">',
  '\t\t<p>text</p>',
  ' \v\f <br>',
  '',
  '   ',
  'plain words',
  'Crawl-delay: 5',
  '  crawl-delay: 7 # c',
  'Disallow: /page',
  '  User-agent: bot',
  'deny: x',
  ' allow /a',
  '#',
);
const page = fc.array(fc.tuple(pageLine, eol), { maxLength: 40 }).chain((lines) =>
  fc.boolean().map((endsWithBreak) => {
    const text = lines.map(([l, e]) => l + e).join('');
    return endsWithBreak || lines.length === 0 ? text : text + lines[0]![0];
  }),
);

/** What the full tokenizer sees of a text: every directive's kind, line and value, and the line count. */
function directivesOf(text: string) {
  const seen: [string, number, string][] = [];
  const { lineCount } = tokenizeBody(text, {
    directive: (d) =>
      void seen.push([d.kind === 'unknown' ? d.key.toLowerCase() : d.kind, d.line, shown(d.value)]),
  });
  return { seen, lineCount };
}

describe('the skimming tokenizer', () => {
  test('passes over a page served as robots.txt line for line, as the full tokenizer reads it', () => {
    fc.assert(
      fc.property(page, (text) => {
        const robots = parse(text);
        const { seen, lineCount } = directivesOf(text);
        assert.equal(robots.lineCount, lineCount);
        // Extras are read from the runs of lines passed over: every other key, with its
        // value and line.
        const extras = seen.filter(
          ([key]) => !['user-agent', 'allow', 'disallow', 'sitemap'].includes(key),
        );
        assert.deepEqual(
          robots.extras.map((e) => [e.key, e.line, e.value]),
          extras,
        );
        const rules = seen.filter(([key]) => key === 'allow' || key === 'disallow');
        const ruleLines = [
          ...robots.orphanRuleLines,
          ...robots.groups.flatMap((g) => g.rules.map((r) => r.line)),
        ].sort((a, b) => a - b);
        assert.deepEqual(
          ruleLines,
          rules.map(([, line]) => line),
        );
        assert.deepEqual(parse(new TextEncoder().encode(text)).extras, robots.extras);
      }),
      { numRuns: 2000 },
    );
  });

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
