/**
 * Parsing keeps its optimized code across a full collection (issue 29): a collection that
 * frees every object of the parses before must not make the engine throw away the code
 * built for the parser's short-lived objects ("weak objects" deopts), which halved the speed
 * of the parses after it. Run in a child process with V8's deopt trace; what is asserted is
 * the trace, not a time.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const CORE = fileURLToPath(new URL('../../src/core/index.ts', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/robots', import.meta.url));

// Reads 600 corpus files, parses and checks them until the parser's code is optimized, then
// collects everything and parses again, printing markers around both (the code is marked for
// deoptimization during the collection).
const CHILD = `
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const dir = ${JSON.stringify(CORPUS)};
const bodies = readdirSync(dir).sort().slice(0, 600).map((f) => new Uint8Array(readFileSync(join(dir, f))));
import(${JSON.stringify(CORE)}).then(({ parse }) => {
  const pass = () => {
    for (const body of bodies) parse(body).isAllowed('https://example.com/a/b.html?q=1', 'Googlebot');
  };
  for (let i = 0; i < 40; i++) pass();
  console.log('--- the collection ---');
  globalThis.gc();
  pass();
  console.log('--- end ---');
});
`;

/** Functions of the parse and check that lost their optimized code after the collection. */
function deoptsAfterCollection(): string[] {
  const trace = execFileSync(
    process.execPath,
    ['--expose-gc', '--trace-deopt', '--import', 'tsx', '-e', CHILD],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const after = trace.slice(trace.indexOf('--- the collection ---'), trace.indexOf('--- end ---'));
  assert.ok(after.length > 0, 'the child ran to the end');
  return [...after.matchAll(/<SharedFunctionInfo ([^>]*)>[^\n]*reason: weak objects/g)].map(
    (m) => m[1]!,
  );
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
