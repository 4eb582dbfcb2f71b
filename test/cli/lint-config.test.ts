/**
 * `repkit lint` configured as eslint users expect: rules off or their severity changed by flag
 * and by a configuration file (repkit.config.json, .yaml, package.json "repkit"), flags over
 * the file, `--max-warnings`, and globs in file arguments.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

/** A project folder: two robots.txt files, one with a typo (warning) and a crawl-delay (info). */
function project(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'repkit-lint-config-'));
  mkdirSync(join(dir, 'sites/a'), { recursive: true });
  mkdirSync(join(dir, 'sites/b'), { recursive: true });
  writeFileSync(join(dir, 'sites/a/robots.txt'), 'User-agent: *\nDisalow: /x\nCrawl-delay: 5\n');
  writeFileSync(join(dir, 'sites/b/robots.txt'), 'User-agent: *\nDisallow: /y\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

type Report = {
  robots: string;
  errors: number;
  warnings: number;
  diagnostics: { code: string; severity: string }[];
};
const reports = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Report);

test('a glob names every file it matches, sorted; one that matches nothing is an input error', async () => {
  const cwd = project();
  const run = await runCli(['lint', '--json', 'sites/**/robots.txt'], { cwd });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    reports(run.stdout).map((r) => r.robots),
    ['sites/a/robots.txt', 'sites/b/robots.txt'],
  );
  const none = await runCli(['lint', 'nothing/*.txt'], { cwd });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no file matches nothing\/\*\.txt/);
});

test('--rule turns a rule off or changes its severity; an unknown rule or setting is a usage error', async () => {
  const cwd = project();
  const run = await runCli(
    [
      'lint',
      '--json',
      'sites/a/robots.txt',
      '--rule',
      'typo=error',
      '--rule',
      'ignored-by-google=off',
    ],
    { cwd },
  );
  assert.equal(run.code, 1, 'the typo is an error now');
  const [a] = reports(run.stdout);
  assert.deepEqual(
    a!.diagnostics.map((d) => [d.code, d.severity]),
    [['typo', 'error']],
  );
  assert.equal(a!.errors, 1);
  const typo = await runCli(['lint', 'sites/a/robots.txt', '--rule', 'tpyo=off'], { cwd });
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /no lint rule is called "tpyo"/);
  const level = await runCli(['lint', 'sites/a/robots.txt', '--rule', 'typo=loud'], { cwd });
  assert.equal(level.code, 2);
  assert.match(level.stderr, /not one of off, info, warning, error/);
});

test('a configuration file sets rules and maxWarnings; flags win over it', async () => {
  for (const [name, text] of [
    ['repkit.config.json', '{ "lint": { "rules": { "typo": "off" }, "maxWarnings": 0 } }'],
    ['repkit.config.yaml', 'lint:\n  rules:\n    typo: "off"\n  maxWarnings: 0\n'],
    [
      'package.json',
      '{ "name": "site", "repkit": { "lint": { "rules": { "typo": "off" }, "maxWarnings": 0 } } }',
    ],
  ] as const) {
    const cwd = project({ [name]: text });
    const run = await runCli(['lint', '--json', 'sites/a/robots.txt'], { cwd });
    assert.equal(run.code, 0, `${name}: ${run.stderr}`);
    assert.deepEqual(
      reports(run.stdout)[0]!.diagnostics.map((d) => d.code),
      ['ignored-by-google'],
      name,
    );
    // The flag wins: the typo back, as a warning, and the file's maxWarnings 0 fails the run.
    const flagged = await runCli(['lint', 'sites/a/robots.txt', '--rule', 'typo=warning'], { cwd });
    assert.equal(flagged.code, 1, name);
    assert.match(flagged.stderr, /1 warning\(s\), more than --max-warnings 0/);
  }
  const broken = project({ 'repkit.config.json': '{ "lint": { "rules": { "typo": "loud" } } }' });
  const run = await runCli(['lint', 'sites/a/robots.txt'], { cwd: broken });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /repkit\.config\.json: lint\.rules\.typo: "loud" is not one of/);
});

test('--max-warnings counts every file of the run; within it the run passes', async () => {
  const cwd = project();
  const over = await runCli(['lint', 'sites/**/robots.txt', '--max-warnings', '0'], { cwd });
  assert.equal(over.code, 1);
  assert.match(over.stderr, /1 warning\(s\), more than --max-warnings 0/);
  const within = await runCli(['lint', 'sites/**/robots.txt', '--max-warnings', '1'], { cwd });
  assert.equal(within.code, 0, within.stderr);
  const sarif = await runCli(
    ['lint', 'sites/**/robots.txt', '--format', 'sarif', '--max-warnings', '0'],
    { cwd },
  );
  assert.equal(sarif.code, 1);
});
