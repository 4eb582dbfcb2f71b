/**
 * Parsing keeps its optimized code across a full collection (issue 29): a collection that
 * frees every object of the parses before must not make the engine throw away the code
 * built for the parser's short-lived objects ("weak objects" deopts), which halved the speed
 * of the parses after it. Run in a child process with V8's deopt trace; what is asserted is
 * the trace, not a time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { corpusDeoptTrace, deoptedFunctions } from '../helpers/deopt-trace.ts';

// Parses and checks 600 corpus files until the parser's code is optimized, then collects
// everything and parses again, printing a marker between (the code is marked for
// deoptimization during the collection). Every other file is asked about a directory as
// well: a path ending in '/' is also matched against the index.html aliases of a file that
// allows an index.html (Google's alias), the one in eight that does here among them.
const COLLECTION = `
  const aliased = new TextEncoder().encode('User-agent: *\\nDisallow: /a/\\nAllow: /a/index.html\\n');
  const pass = () => {
    bodies.forEach((body, i) => {
      const robots = parse(i % 8 === 0 ? aliased : body);
      robots.isAllowed('https://example.com/a/b.html?q=1', 'Googlebot');
      if (i % 2 === 0) robots.isAllowed('https://example.com/a/', 'Googlebot');
    });
  };
  for (let i = 0; i < 40; i++) pass();
  console.log('--- the collection ---');
  globalThis.gc();
  pass();
`;

/** Functions of the parse and check that lost their optimized code after the collection. */
function deoptsAfterCollection(): string[] {
  const trace = corpusDeoptTrace({ body: COLLECTION, files: 600, exposeGc: true });
  const collection = trace.indexOf('--- the collection ---');
  assert.notEqual(collection, -1, 'the child reached the collection');
  return deoptedFunctions(trace.slice(collection), 'weak objects');
}

// Functions whose code the collection threw away before the samples (seen in this trace).
const PARSER_CODE = new Set([
  'Tokenizer',
  'skimLines',
  'passOver',
  'endPassOver',
  'keyValue',
  'GroupBuilder',
  'usual',
  'other',
  'finish',
  'agent',
  'rule',
  'line',
  // And the check's: the result, its rule index and selection.
  'RobotsTxt',
  'RuleIndex',
  'isAllowed',
  'verdict',
  'scanIfUnsorted',
  'best',
  // And a check that meets the index.html aliases (an aliased index).
  'allows',
  'AliasedIndex',
]);

test('a full collection between parses leaves the parser and the checks their optimized code', () => {
  const lost = deoptsAfterCollection().filter((name) => PARSER_CODE.has(name));
  assert.deepEqual(lost, []);
});

// What the test above reads: V8 names code a collection threw away in a "marking dependent
// code" line, not in a bailout's. Lines as Node 20's V8 prints them.
test('the trace reader names the function of each form of deopt line', () => {
  const lazy =
    '[marking dependent code 0x31224d674299 <Code TURBOFAN> (0x0dda369d7f71 ' +
    '<SharedFunctionInfo scanInPlace>) (opt id 8) for deoptimization, reason: weak objects]';
  const eager =
    '[bailout (kind: deopt-eager, reason: Insufficient type feedback for call): begin. ' +
    'deoptimizing 0x2dc9d62aaa29 <JSFunction usualAgent (sfi = 0xdda369d9e01)>, ' +
    '0x31224d6710e9 <Code TURBOFAN>, opt id 5, bytecode offset 62';
  const trace = [lazy, eager, '[completed optimizing 0x1 <JSFunction line (sfi = 0x2)>]'].join(
    '\n',
  );
  assert.deepEqual(deoptedFunctions(trace, 'weak objects'), ['scanInPlace']);
  assert.deepEqual(deoptedFunctions(trace, 'Insufficient type feedback'), ['usualAgent']);
});
