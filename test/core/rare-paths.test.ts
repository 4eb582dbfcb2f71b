/**
 * The first parse shows the engine the parser's rare paths (`rarePathSamples`, parse.ts), so
 * that the optimized parser does not meet them unseen in the files that follow: a path with
 * no type feedback throws the optimized code away when a file first takes it ("Insufficient
 * type feedback" deopts, three to seven in a fresh process's first pass over the corpus
 * before the samples and the column's typed paths, see `showColumnPaths`). Run in a child
 * process with V8's deopt trace; what is asserted is the trace and what the samples hold,
 * not a time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from '../../src/core/index.ts';
import { rarePathSamples } from '../../src/core/parse.ts';
import { corpusDeoptTrace, deoptedFunctions } from '../helpers/deopt-trace.ts';

// Two passes over the whole corpus in a fresh process (the parser is optimized during the
// first), each file parsed from bytes and checked once, as a crawler meets new files.
const TWO_PASSES = `
  for (let pass = 0; pass < 2; pass++) {
    for (const body of bodies) parse(body).isAllowed('https://example.com/a/b.html?q=1', 'Googlebot');
  }
`;

// The parse's functions whose optimized code a rare path threw away before the samples (seen
// in this trace). `finish` and the check's `allows` still lose theirs in some processes (see
// `rarePathSamples`), so they are not among them.
const PARSER_CODE = new Set([
  'skimLane',
  'usualAgent',
  'usualRules',
  'other',
  'addLines',
  'addRecords',
  'appendFrom',
  'push',
]);

test('a fresh process parses the corpus without meeting a parser path it had no feedback for', () => {
  const trace = corpusDeoptTrace({ body: TWO_PASSES });
  const unseen = deoptedFunctions(trace, 'Insufficient type feedback').filter((name) =>
    PARSER_CODE.has(name),
  );
  assert.deepEqual(unseen, []);
});

test('the samples take the paths they are there for', () => {
  const [main, beforeGroups] = rarePathSamples();
  const robots = parse(main);
  // A user-agent value that is not ASCII, after ten that are, in the group its rule is in.
  const agents = robots.groups.flatMap((group) => group.agents);
  assert.deepEqual(agents.slice(-2), ['bj', 'bét']);
  assert.equal(robots.isAllowed('https://example.com/p9', 'ba'), false);
  // A rule before any group (ignored, as Google ignores it).
  const early = parse(beforeGroups);
  assert.equal(early.isAllowed('https://example.com/before-any-group', 'Googlebot'), true);
  assert.equal(early.isAllowed('https://example.com/x', 'Googlebot'), false);
});
