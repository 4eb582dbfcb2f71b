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
// deoptimization during the collection).
const COLLECTION = `
  const pass = () => {
    for (const body of bodies) parse(body).isAllowed('https://example.com/a/b.html?q=1', 'Googlebot');
  };
  for (let i = 0; i < 40; i++) pass();
  console.log('--- the collection ---');
  globalThis.gc();
  pass();
`;

/** Functions of the parse and check that lost their optimized code after the collection. */
function deoptsAfterCollection(): string[] {
  const trace = corpusDeoptTrace({ body: COLLECTION, files: 600, exposeGc: true });
  const after = trace.slice(trace.indexOf('--- the collection ---'));
  assert.notEqual(trace.indexOf('--- the collection ---'), -1, 'the child reached the collection');
  return deoptedFunctions(after, 'weak objects');
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
]);

test('a full collection between parses leaves the parser and the checks their optimized code', () => {
  const lost = deoptsAfterCollection().filter((name) => PARSER_CODE.has(name));
  assert.deepEqual(lost, []);
});
