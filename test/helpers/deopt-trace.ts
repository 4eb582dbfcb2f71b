/**
 * V8's deopt trace of a fresh process that parses the corpus, for the tests that hold the
 * parser's optimized code in place (shapes.test.ts, rare-paths.test.ts). What they assert is
 * which functions lose their code, and why: never a time.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childEnv } from './child-env.ts';

const CORE = fileURLToPath(new URL('../../src/core/index.ts', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/robots', import.meta.url));
const END = '--- end ---';

export interface CorpusRun {
  /**
   * The child's work, run with `parse` (the core's) and `bodies` (the corpus files as bytes,
   * in name order) in scope; it may print markers to cut the trace by.
   */
  readonly body: string;
  /** How many corpus files `bodies` holds, the first in name order. @default every file */
  readonly files?: number;
  /** Gives the child `globalThis.gc`. @default false */
  readonly exposeGc?: boolean;
}

/**
 * Runs `run.body` in a child under `--trace-deopt` and returns what it printed, trace and
 * markers in the order they came. Fails if the child did not run to its end.
 */
export function corpusDeoptTrace(run: CorpusRun): string {
  const files = run.files === undefined ? '' : `.slice(0, ${run.files})`;
  const script = `
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const dir = ${JSON.stringify(CORPUS)};
const bodies = readdirSync(dir).sort()${files}.map((f) => new Uint8Array(readFileSync(join(dir, f))));
import(${JSON.stringify(CORE)}).then(({ parse }) => {
${run.body}
  console.log(${JSON.stringify(END)});
});
`;
  const flags = run.exposeGc ? ['--expose-gc'] : [];
  const trace = execFileSync(
    process.execPath,
    [...flags, '--trace-deopt', '--import', 'tsx', '-e', script],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: childEnv() },
  );
  assert.ok(trace.includes(END), 'the child ran to the end');
  return trace;
}

/**
 * The functions the trace says lost their optimized code for `reason` (as V8 words it, e.g.
 * "weak objects", "Insufficient type feedback"), in trace order: from an eager deopt's line
 * (`deoptimizing … <JSFunction name`) or a lazy one's (`marking dependent code …
 * <SharedFunctionInfo name>`).
 */
export function deoptedFunctions(trace: string, reason: string): string[] {
  const names: string[] = [];
  for (const line of trace.split('\n')) {
    if (!line.includes(`reason: ${reason}`)) continue;
    const name =
      nameAfter(line, '<JSFunction ', ' ') ?? nameAfter(line, '<SharedFunctionInfo ', '>');
    if (name !== undefined) names.push(name);
  }
  return names;
}

/** The text between the first `open` and the next `close` after it, if both are there. */
function nameAfter(line: string, open: string, close: string): string | undefined {
  const at = line.indexOf(open);
  if (at < 0) return undefined;
  const start = at + open.length;
  const end = line.indexOf(close, start);
  return end < 0 ? undefined : line.slice(start, end);
}
