/**
 * The linear wildcard matcher against a straightforward reference (Google's position-set
 * matcher), on random patterns and paths built from few characters so that segments occur
 * many times and near misses are common.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { matchesPattern, matchesPatternIn, matchesRestIn } from '../../src/core/match/wildcard.ts';
import { PathChars } from '../../src/core/match/path-chars.ts';
import { posSetMatches } from '../helpers/google-oracle.ts';

const piece = fc.constantFrom('a', 'b', 'ab', 'aab', '*', '*', '$', '/');
const patternArb = fc.array(piece, { maxLength: 12 }).map((parts) => '/' + parts.join(''));
const pathArb = fc
  .array(fc.constantFrom('a', 'b', 'a', 'ab', '$', '/'), { maxLength: 40 })
  .map((parts) => '/' + parts.join(''));

describe('wildcard matching', () => {
  test('agrees with the position-set reference on random patterns and paths', () => {
    fc.assert(
      fc.property(patternArb, pathArb, (pattern, path) => {
        assert.equal(
          matchesPattern(pattern, path),
          posSetMatches(path, pattern),
          `${pattern} vs ${path}`,
        );
      }),
      { numRuns: 20_000 },
    );
  });

  test('a pattern matched where it stands in a larger text answers as the pattern alone', () => {
    // The text around it holds stars and `$`, which must not be taken for the pattern's.
    const around = fc.constantFrom('', '*', 'a*b$', '\n*', '$');
    fc.assert(
      fc.property(around, patternArb, around, pathArb, (before, pattern, after, path) => {
        const text = before + pattern + after;
        const begin = before.length;
        assert.equal(
          matchesPatternIn(text, begin, begin + pattern.length, path),
          posSetMatches(path, pattern),
          `${JSON.stringify(text)} [${begin}, ${begin + pattern.length}) vs ${path}`,
        );
      }),
      { numRuns: 20_000 },
    );
  });

  test('the rest of a value read once from its first wildcard: the reference, or -1 for % and non-ASCII', () => {
    // Segments up to seven characters (searched where they stand) and longer (natively).
    const restPiece = fc.constantFrom(
      'a',
      'b',
      'ab',
      'aab',
      'abababa',
      'aaaaaab',
      '*',
      '$',
      '%',
      'é',
    );
    const restArb = fc.array(restPiece, { maxLength: 10 }).map((parts) => parts.join(''));
    const around = fc.constantFrom('', '*', 'a*b$', '\n*');
    fc.assert(
      fc.property(
        around,
        fc.constantFrom('/', '/a', '/ab'),
        fc.constantFrom('*', '$'),
        restArb,
        around,
        pathArb,
        (before, head, wildcard, rest, after, path) => {
          const value = head + wildcard + (wildcard === '$' ? '' : rest);
          // The caller has matched the head in place already.
          if (!path.startsWith(head)) return;
          const text = before + value + after;
          const at = before.length + head.length;
          const answer = matchesRestIn(text, at, before.length + value.length, path, head.length);
          const rewritten = /[%\u0080-\uffff]/.test(value);
          if (answer === -1) assert.ok(rewritten, `-1 for ${value}`);
          else assert.equal(answer === 1, posSetMatches(path, value), `${value} vs ${path}`);
        },
      ),
      { numRuns: 30_000 },
    );
  });

  test('long paths of one common character: searching from a rarer one never changes an answer', () => {
    // A path of mostly `a` with a few rarer characters, so that segments starting with `a`
    // are searched from their rarer characters' positions (see `find` in wildcard.ts).
    const rareBits = fc.array(fc.constantFrom('b', 'c', '1', '2', 'é', 'bc', '12'), {
      maxLength: 8,
    });
    const longPath = fc
      .tuple(fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 8 }), rareBits)
      .map(([runs, bits]) => '/' + runs.map((n, i) => 'a'.repeat(n) + (bits[i] ?? '')).join(''))
      .filter((path) => path.length >= 256);
    const segment = fc.constantFrom('a', 'ab', 'a1', 'a12', 'abc', 'ba', 'aé', 'c', '2a', 'aab');
    const pattern = fc
      .array(fc.oneof(segment, fc.constant('*')), { maxLength: 6 })
      .chain((parts) =>
        fc.boolean().map((anchored) => '/*' + parts.join('') + (anchored ? '$' : '')),
      );
    fc.assert(
      fc.property(pattern, longPath, (p, path) => {
        const expected = posSetMatches(path, p);
        assert.equal(matchesPattern(p, path, new PathChars(path)), expected, `${p} vs ${path}`);
      }),
      { numRuns: 5_000 },
    );
  });

  test('patterns sharing prefixes, matched in turn against one long path: the remembered prefix never changes an answer', () => {
    // Rules of a file share their stars and first segments (`/*a*a*…*a10`, `/*a*a*…*a11`):
    // one PathChars remembers where the last pattern's prefix ended (PathChars.knownPrefix).
    const part = fc.constantFrom('a', 'b', 'ab', 'a1', '1', 'aab', '*', '*', '$');
    const prefix = fc.array(part, { maxLength: 6 }).map((parts) => '/*' + parts.join(''));
    const tail = fc.array(part, { maxLength: 4 }).map((parts) => parts.join(''));
    const patterns = fc
      .tuple(fc.array(prefix, { minLength: 1, maxLength: 3 }), fc.array(tail, { maxLength: 12 }))
      .chain(([prefixes, tails]) =>
        fc.tuple(
          ...tails.map((t) =>
            fc.nat(prefixes.length - 1).map((i) => prefixes[i]! + (i % 2 ? '*' : '') + t),
          ),
        ),
      );
    const longPath = fc
      .tuple(fc.array(fc.constantFrom('a', 'b', 'ab', '1', 'a1', '$'), { maxLength: 12 }), pathArb)
      .map(([bits, rest]) => '/' + 'a'.repeat(260) + bits.join('') + rest);
    fc.assert(
      fc.property(patterns, longPath, longPath, (list, path, other) => {
        const held = new PathChars(path);
        // As a robots.txt holds them: one text, each matched where it stands.
        const text = list.join('\n');
        const alone = new PathChars(path);
        let begin = 0;
        for (const p of list) {
          const expected = posSetMatches(path, p);
          assert.equal(matchesPatternIn(text, begin, begin + p.length, path, held), expected, p);
          assert.equal(matchesPattern(p, path, alone), expected, `${p} alone`);
          begin += p.length + 1;
        }
        // The same PathChars made over for another path forgets the prefix.
        held.reset(other);
        for (const p of list) {
          assert.equal(matchesPattern(p, other, held), posSetMatches(other, p), `${p} vs other`);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  test('long paths: asking what the path holds never changes an answer', () => {
    const longPath = fc
      .tuple(pathArb, fc.integer({ min: 10, max: 40 }), pathArb)
      .map(([piece, times, tail]) => piece.repeat(times).slice(0, 400) + tail);
    fc.assert(
      fc.property(patternArb, longPath, (pattern, path) => {
        const held = new PathChars(path);
        const expected = posSetMatches(path, pattern);
        assert.equal(matchesPattern(pattern, path, held), expected, `${pattern} vs ${path}`);
      }),
      { numRuns: 3_000 },
    );
    // A pattern needing a character the path lacks, the path holding a non-ASCII one.
    assert.equal(
      matchesPattern('/*a0', '/' + 'a'.repeat(500), new PathChars('/' + 'a'.repeat(500))),
      false,
    );
    assert.equal(
      matchesPattern('/*é', `/${'a'.repeat(300)}é`, new PathChars(`/${'a'.repeat(300)}é`)),
      true,
    );
  });

  test('patterns longer than the path, tested segment by segment, answer as the reference', () => {
    // Paths of 256 to ~330 characters and patterns longer than them: what the path holds is
    // asked per segment as the segments are reached (see wildcard.ts).
    const longPath = fc
      .tuple(pathArb, fc.integer({ min: 8, max: 40 }), pathArb)
      .map(([piece, times, tail]) => ('/a' + piece.repeat(times)).slice(0, 300) + tail)
      .filter((path) => path.length >= 256);
    const longPattern = fc
      .tuple(
        patternArb,
        fc.array(fc.constantFrom('a', 'ab', '*', 'b*', 'c', '$'), { minLength: 1 }),
      )
      .map(([head, pieces]) => {
        let pattern = head;
        for (let i = 0; pattern.length <= 340; i++) pattern += pieces[i % pieces.length];
        return pattern;
      });
    fc.assert(
      fc.property(longPattern, longPath, (pattern, path) => {
        const expected = posSetMatches(path, pattern);
        assert.equal(
          matchesPattern(pattern, path, new PathChars(path)),
          expected,
          `${pattern} vs ${path}`,
        );
      }),
      { numRuns: 2_000 },
    );
  });

  test('what a path holds: asked natively, then walked past 16 characters, the same answers', () => {
    const path = `/${'abcdefghij'.repeat(30)}é`;
    const chars = new PathChars(path);
    const asked = '/abcdefghijklmnopqrstuvwxyz0123456789';
    // The first 16 distinct characters are asked of the native search, the rest of the walk.
    for (const c of asked) assert.equal(chars.has(c.charCodeAt(0)), path.includes(c), c);
    assert.equal(chars.has(0xe9), true);
    assert.equal(chars.has(0x100), true, 'every code from 128 up shares a bucket');
    // The same after a reset to another path, whose answers differ.
    chars.reset(`/${'z'.repeat(300)}`);
    assert.equal(chars.has(0x61), false);
    assert.equal(chars.has(0x7a), true);
    assert.equal(chars.has(0xe9), false);
  });

  test('edge forms: lone $, $ before a star, empty segments, anchored tails', () => {
    const cases: [string, string, boolean][] = [
      ['$', '', true],
      ['$', '/', false],
      ['/a$*', '/a$x', true],
      ['/a$*', '/ax', false],
      ['/**a**$', '/xxa', true],
      ['/*a$', '/a', true],
      ['/a*a$', '/a', false],
      ['/a*a$', '/aa', true],
      ['/*ab*ab$', '/abab', true],
      ['/*ab*ab$', '/ab', false],
    ];
    for (const [pattern, path, expected] of cases) {
      assert.equal(matchesPattern(pattern, path), expected, `${pattern} vs ${path}`);
      assert.equal(posSetMatches(path, pattern), expected, `reference: ${pattern} vs ${path}`);
    }
  });
});
