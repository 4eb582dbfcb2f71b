/**
 * The linear wildcard matcher against a straightforward reference (Google's position-set
 * matcher), on random patterns and paths built from few characters so that segments occur
 * many times and near misses are common.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { charSet, matchesPattern, matchesPatternIn } from '../../src/core/match/wildcard.ts';
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
        assert.equal(matchesPattern(p, path, charSet(path)), expected, `${p} vs ${path}`);
      }),
      { numRuns: 5_000 },
    );
  });

  test('long paths: the character-set test never changes an answer', () => {
    const longPath = fc
      .tuple(pathArb, fc.integer({ min: 10, max: 40 }), pathArb)
      .map(([piece, times, tail]) => piece.repeat(times).slice(0, 400) + tail);
    fc.assert(
      fc.property(patternArb, longPath, (pattern, path) => {
        const held = charSet(path);
        const expected = posSetMatches(path, pattern);
        assert.equal(matchesPattern(pattern, path, held), expected, `${pattern} vs ${path}`);
      }),
      { numRuns: 3_000 },
    );
    // A pattern needing a character the path lacks, the path holding a non-ASCII one.
    assert.equal(
      matchesPattern('/*a0', '/' + 'a'.repeat(500), charSet('/' + 'a'.repeat(500))),
      false,
    );
    assert.equal(
      matchesPattern('/*é', `/${'a'.repeat(300)}é`, charSet(`/${'a'.repeat(300)}é`)),
      true,
    );
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
