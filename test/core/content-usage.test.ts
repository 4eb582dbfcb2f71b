/**
 * Content-Usage rules (draft-ietf-aipref-attach) and their vocabulary (draft-ietf-aipref-vocab),
 * from the drafts' own examples, and the RFC 9651 Dictionary parser they rely on.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parse } from '../../src/core/index.ts';
import { statementPreferences } from '../../src/core/match/content-usage.ts';
import { parseDictionary } from '../../src/core/match/structured-fields.ts';

const ATTACH_EXAMPLE = [
  'User-Agent: *',
  'Allow: /',
  'Disallow: /never/',
  'Content-Usage: train-ai=n',
  'Content-Usage: /ai-ok/ train-ai=y',
  '',
  'User-Agent: ExampleBot',
  'Allow: /',
  'Content-Usage: train-ai=y',
].join('\n');

describe('the attach draft example', () => {
  const robots = parse(ATTACH_EXAMPLE);
  const usage = (path: string, agent = 'OtherBot') =>
    robots.contentUsage(`https://example.com${path}`, agent);

  test('its table: /test train-ai=n, /never/test no preference, /ai-ok/test train-ai=y', () => {
    assert.equal(usage('/test').preferences['train-ai'], 'disallowed');
    assert.deepEqual(usage('/never/test').preferences, {
      'train-ai': 'unknown',
      search: 'unknown',
    });
    assert.equal(usage('/never/test').reason, 'disallowed-by-robots-txt');
    assert.equal(usage('/ai-ok/test').preferences['train-ai'], 'allowed');
    assert.equal(usage('/ai-ok/test').decidedBy['train-ai']?.line, 5);
    assert.equal(usage('/test').decidedBy['train-ai']?.line, 4);
    assert.equal(usage('/test').preferences.search, 'unknown');
  });

  test('rules belong to the group chosen for the crawler, as Allow and Disallow do', () => {
    const example = usage('/anything', 'ExampleBot');
    assert.deepEqual(
      [example.preferences['train-ai'], example.decidedBy['train-ai']?.line],
      ['allowed', 9],
    );
  });
});

describe('matching and combining', () => {
  const usage = (file: string, path: string) =>
    parse(`User-agent: *\n${file}`).contentUsage(`https://h${path}`, 'Bot');

  test('the longest path wins; a rule without a path applies to every path', () => {
    const file =
      'Content-Usage: search=y\nContent-Usage: /a/ search=n\nContent-Usage: /a/b/ search=y\n';
    assert.equal(usage(file, '/x').preferences.search, 'allowed');
    assert.equal(usage(file, '/a/x').preferences.search, 'disallowed');
    assert.equal(usage(file, '/a/b/x').preferences.search, 'allowed');
    assert.equal(usage('Content-Usage: /a/ search=n\n', '/b').reason, 'no-content-usage-rule');
  });

  test('paths match as Allow and Disallow do: %-encoding, * and $', () => {
    assert.equal(
      usage('Content-Usage: /café/ train-ai=n\n', '/caf%C3%A9/x').preferences['train-ai'],
      'disallowed',
    );
    assert.equal(
      usage('Content-Usage: /*.pdf$ train-ai=n\n', '/doc/a.pdf').preferences['train-ai'],
      'disallowed',
    );
    assert.equal(
      usage('Content-Usage: /*.pdf$ train-ai=n\n', '/doc/a.pdf?x').reason,
      'no-content-usage-rule',
    );
  });

  test('rules with the same path combine per category: any n disallows, else any y allows', () => {
    const file = 'Content-Usage: /p/ train-ai=y, search=y\nContent-Usage: /p/ train-ai=n\n';
    const result = usage(file, '/p/x');
    assert.deepEqual(result.preferences, { 'train-ai': 'disallowed', search: 'allowed' });
    assert.deepEqual([result.decidedBy['train-ai']?.line, result.decidedBy.search?.line], [3, 2]);
    assert.equal(result.rules.length, 2);
  });
});

describe('statements of preference (vocab draft)', () => {
  test('y and n Tokens; other values, absent keys and unknown labels are unknown', () => {
    assert.deepEqual(statementPreferences('train-ai=y, search=n'), {
      'train-ai': 'allowed',
      search: 'disallowed',
    });
    assert.deepEqual(statementPreferences('train-ai="n", search=?1, foo=n'), {
      'train-ai': 'unknown',
      search: 'unknown',
    });
  });

  test("the draft's own cases: a repeated key keeps its last value; parameters are ignored", () => {
    assert.deepEqual(statementPreferences('train-ai=y, train-ai, search=n, search="n"'), {
      'train-ai': 'unknown',
      search: 'unknown',
    });
    assert.equal(statementPreferences('train-ai;allow=n, train-ai=y')['train-ai'], 'allowed');
    assert.equal(statementPreferences('train-ai;has;parameters="?";')['train-ai'], 'unknown');
  });

  test('a statement that does not parse (an upper-case key) makes every category unknown', () => {
    assert.deepEqual(statementPreferences('Train-AI=n, search=y'), {
      'train-ai': 'unknown',
      search: 'unknown',
    });
    assert.deepEqual(statementPreferences('search=y,'), {
      'train-ai': 'unknown',
      search: 'unknown',
    });
  });
});

describe('RFC 9651 Dictionary', () => {
  test('every bare item type, inner lists and parameters', () => {
    const members = parseDictionary(
      'a=1, b=-2.5, c="x\\\\\\"y", d=tok/en:1, e=:aGk=:, f=?0, g=@1700000000, h=%"d", i=(1 "two" three);p, j',
    );
    assert.deepEqual(
      [...members!].map(([key, item]) => [key, item.type]),
      [
        ['a', 'integer'],
        ['b', 'decimal'],
        ['c', 'string'],
        ['d', 'token'],
        ['e', 'bytes'],
        ['f', 'boolean'],
        ['g', 'date'],
        ['h', 'display'],
        ['i', 'inner-list'],
        ['j', 'boolean'],
      ],
    );
    assert.equal(members!.get('c')!.value, 'x\\"y');
    assert.equal(parseDictionary('  ')!.size, 0);
  });

  test('malformed dictionaries fail as a whole', () => {
    for (const bad of [
      'A=1',
      'a=1,',
      'a=1 b=2',
      'a="unterminated',
      'a=1.2345',
      'a=(1 2',
      'a=:not base64!:',
      '1a=1',
    ]) {
      assert.equal(parseDictionary(bad), undefined, bad);
    }
  });
});

describe('Content-Usage matching takes shortcuts that never change the answer', () => {
  /** `*` for any run, a final `$` for the end; every position tried (memoised). */
  function plainMatch(pattern: string, path: string): boolean {
    const anchored = pattern.endsWith('$');
    const body = anchored ? pattern.slice(0, -1) : pattern;
    const memo = new Map<number, boolean>();
    const go = (i: number, j: number): boolean => {
      const key = i * (path.length + 1) + j;
      const known = memo.get(key);
      if (known !== undefined) return known;
      let result: boolean;
      if (i === body.length) result = !anchored || j === path.length;
      else if (body[i] === '*') result = go(i + 1, j) || (j < path.length && go(i, j + 1));
      else result = j < path.length && path[j] === body[i] && go(i + 1, j + 1);
      memo.set(key, result);
      return result;
    };
    return go(0, 0);
  }

  /** The rules applied, found the plain way: every rule matched, the longest kept. */
  function reference(body: string, path: string): number[] {
    let longest = -1;
    let lines: number[] = [];
    body.split('\n').forEach((text, i) => {
      const m = /^Content-Usage:\s*(\S*)\s+\S/.exec(text);
      if (!m) return;
      const pattern = m[1]!;
      const matched = pattern === '' || plainMatch(pattern, path);
      if (!matched || pattern.length < longest) return;
      if (pattern.length > longest) lines = [];
      longest = pattern.length;
      lines.push(i + 1);
    });
    return lines;
  }

  test('repeated and wildcard patterns against long and short paths', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^\/[ab0*]{0,6}\$?$/), { minLength: 1, maxLength: 30 }),
        fc.stringMatching(/^[ab0]{0,6}$/),
        fc.integer({ min: 0, max: 400 }),
        (patterns, tail, fill) => {
          const path = `/${'a'.repeat(fill)}${tail}`;
          const body = [
            'User-agent: *',
            ...patterns.map((p) => `Content-Usage: ${p} train-ai=n`),
          ].join('\n');
          const got = parse(body).contentUsage(`https://example.com${path}`, 'bot');
          const lines = got.reason === 'stated' ? got.rules.map((r) => r.line) : [];
          assert.deepEqual(lines, reference(body, path));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
