/**
 * The GitHub Action at the repository root (action.yml): a composite action whose steps run
 * scripts/action/*.sh. Its steps are run here as GitHub runs them (GITHUB_ACTIONS, a
 * GITHUB_OUTPUT file, the step's env), with this checkout's CLI in place of `npx repkit`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { BIN } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';
import { childEnv } from '../helpers/child-env.ts';

interface Action {
  runs: { using: string; steps: { id: string; env: Record<string, string>; run: string }[] };
  inputs: Record<string, unknown>;
  outputs: Record<string, { value: string }>;
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

/** Runs a step of the action as GitHub would: its env, GITHUB_OUTPUT, GITHUB_ACTION_PATH. */
function runStep(id: string, env: Record<string, string>, cwd: string) {
  const step = action.runs.steps.find((s) => s.id === id)!;
  const output = join(cwd, `output-${id}`);
  writeFileSync(output, '');
  const result = spawnSync('bash', ['-c', step.run], {
    cwd,
    encoding: 'utf8',
    env: childEnv({
      ...env,
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: output,
      GITHUB_ACTION_PATH: ROOT,
      REPKIT_CLI: `${process.execPath} ${BIN}`,
      NO_COLOR: '1',
    }),
  });
  return { ...result, outputs: readFileSync(output, 'utf8') };
}

test('action.yml: a composite action with the inputs and outputs the issue names', () => {
  assert.equal(action.runs.using, 'composite');
  assert.deepEqual(Object.keys(action.inputs).sort(), ['lint', 'live', 'sarif', 'spec', 'version']);
  assert.deepEqual(Object.keys(action.outputs).sort(), ['failed', 'lint-errors', 'passed']);
  for (const step of action.runs.steps) {
    const script = /scripts\/action\/[a-z-]+\.sh/.exec(step.run)![0];
    assert.ok(existsSync(join(ROOT, script)), script);
  }
  assert.ok(existsSync(join(ROOT, 'examples/ci/robots.yml')));
});

test("the test step: counts as outputs, failures as annotations, its status the tests'", () => {
  const dir = mkdtempSync(join(tmpdir(), 'repkit-action-'));
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
  writeFileSync(
    join(dir, 'robots.test.yaml'),
    'robots: robots.txt\nexpect:\n  - agent: Googlebot\n    allow: [/, /private/x]\n    disallow: [/private/y]\n',
  );
  const result = runStep(
    'test',
    { SPEC: 'robots.test.yaml', LIVE: '', REPKIT_VERSION: 'latest' },
    dir,
  );
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.outputs, 'passed=2\nfailed=1\n');
  assert.match(
    result.stdout,
    /^::error file=robots\.test\.yaml,line=4,title=robots\.txt expectation::Googlebot \/private\/x: expected allowed/m,
  );
  assert.match(result.stdout, /repkit test: 2 expectation\(s\) hold, 1 fail/);
});

test('the lint step: a SARIF file, annotations, the error count as an output', () => {
  const dir = mkdtempSync(join(tmpdir(), 'repkit-action-'));
  writeFileSync(join(dir, 'robots.txt'), 'Disallow: /x\nUser-agent: *\nDisallow: /y\n');
  const result = runStep(
    'lint',
    { LINT: 'robots.txt', SARIF: 'reports/robots.sarif', REPKIT_VERSION: 'latest' },
    dir,
  );
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.outputs, 'errors=1\n');
  assert.match(result.stdout, /^::error file=robots\.txt,line=1,col=1,title=rule-outside-group::/m);
  const sarif = JSON.parse(readFileSync(join(dir, 'reports/robots.sarif'), 'utf8')) as {
    version: string;
    runs: { results: unknown[] }[];
  };
  assert.deepEqual([sarif.version, sarif.runs[0]!.results.length], ['2.1.0', 1]);
});
