/**
 * The prefix index's order (packed characters sorted natively, ties by comparison) must be
 * the comparison sort's exactly, and its chains must name every shorter prefix that starts
 * a longer one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { prefixOrder, prefixParents } from '../../src/core/match/prefix-order.ts';

/** The order the index used before: a stable comparison sort by prefix, then pattern. */
function comparisonOrder(prefixes: string[], patterns: string[]): number[] {
  return prefixes
    .map((_, k) => k)
    .sort((a, b) => {
      const pa = prefixes[a]!;
      const pb = prefixes[b]!;
      if (pa !== pb) return pa < pb ? -1 : 1;
      const xa = patterns[a]!;
      const xb = patterns[b]!;
      return xa < xb ? -1 : xa > xb ? 1 : 0;
    });
}

// Few characters, so that prefixes share long runs and tie for several rounds; NUL (the
// padding's value), octets above 0x7f and one character far above 0xff included.
const char = fc.constantFrom('/', 'a', 'b', '\0', '\x7f', '\xff', 'é', '\u4e00', '*');
const prefix = fc.oneof(
  fc.array(char, { maxLength: 6 }).map((cs) => cs.join('')),
  // A long shared stem: ties past every round of packed characters.
  fc.array(char, { maxLength: 4 }).map((cs) => '/shared/stem/of/many/characters/' + cs.join('')),
);
// `size: 'max'`: fast-check keeps arrays to about ten entries otherwise, and runs of more
// than 24 are the ones sorted by packed characters.
const entries = fc.array(fc.tuple(prefix, fc.constantFrom('', 'x', '$', '*z')), {
  maxLength: 400,
  size: 'max',
});

describe('prefix index order', () => {
  test('equals the stable comparison sort by prefix, then pattern', () => {
    fc.assert(
      fc.property(entries, fc.boolean(), (list, octetsOnly) => {
        const clean = (s: string): string => (octetsOnly ? s.replaceAll('\u4e00', 'a') : s);
        const prefixes = list.map(([p]) => clean(p));
        const patterns = list.map(([p, tail]) => clean(p) + tail);
        assert.deepEqual(prefixOrder(prefixes, patterns), comparisonOrder(prefixes, patterns));
      }),
      { numRuns: 300 },
    );
  });

  test('is exact on a large file of random rules, and on 2,000 copies of one prefix', () => {
    const words = Array.from(
      { length: 30_000 },
      (_, i) => `/${((i * 7919) % 30_011).toString(36)}x`,
    );
    assert.deepEqual(prefixOrder(words, words), comparisonOrder(words, words));
    const same = Array.from({ length: 2000 }, () => '/wp-content/plugins/');
    const tails = same.map((p, i) => p + String(i % 7));
    assert.deepEqual(prefixOrder(same, tails), comparisonOrder(same, tails));
  });

  test('chains: each position reaches exactly the shorter prefixes that start its own', () => {
    fc.assert(
      fc.property(fc.array(prefix, { maxLength: 200, size: 'max' }), (list) => {
        const sorted = [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const parents = prefixParents(sorted);
        for (let k = 0; k < sorted.length; k++) {
          const reached: string[] = [];
          for (let j = parents[k]!; j >= 0; j = parents[j]!) {
            assert.ok(
              j < k && sorted[j + 1] !== sorted[j],
              "a chain lands on a group's last position",
            );
            reached.push(sorted[j]!);
          }
          const expected = [
            ...new Set(sorted.filter((p) => p !== sorted[k] && sorted[k]!.startsWith(p))),
          ].reverse();
          assert.deepEqual(reached, expected);
        }
      }),
      { numRuns: 200 },
    );
  });
});
