/**
 * A bare domain works wherever a site URL does: `lint example.com`, `check example.com/x`,
 * `explain`, `usage` and `fetch` read it as its https site and say so; a file of that name
 * at hand is still read as the file. (`.invalid` names never resolve: nothing leaves.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

test('check, explain and usage read example.invalid/x as https://example.invalid/x, and say so', async () => {
  for (const args of [
    ['check', '--json', '--agent', 'ExampleBot', 'example.invalid/x?q=1'],
    ['explain', '--json', '--agent', 'ExampleBot', 'example.invalid/x?q=1'],
  ]) {
    const run = await runCli(args);
    assert.match(run.stderr, /read example\.invalid\/x\?q=1 as https:\/\/example\.invalid\/x\?q=1/);
    const answer = JSON.parse(run.stdout.trim().split('\n')[0]!) as { url: string; reason: string };
    assert.equal(answer.url, 'https://example.invalid/x?q=1', args[0]);
    assert.equal(answer.reason, 'robots-txt-unreachable', args[0]);
  }
  const usage = await runCli(['usage', '--json', '--agent', 'ExampleBot', 'example.invalid/a']);
  assert.match(usage.stderr, /read example\.invalid\/a as https:\/\/example\.invalid\/a/);
});

test('lint and fetch take a bare domain; a file of that name is read as the file', async () => {
  const lint = await runCli(['lint', 'example.invalid']);
  assert.match(lint.stderr, /https:\/\/example\.invalid\/robots\.txt: unreachable/);
  const fetched = await runCli(['fetch', 'example.invalid']);
  assert.match(fetched.stderr, /read example\.invalid as https:\/\/example\.invalid\//);
  const dir = mkdtempSync(join(tmpdir(), 'repkit-bare-'));
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
  const file = await runCli(['lint', '--json', join(dir, 'robots.txt')]);
  assert.equal(file.code, 0, file.stderr);
  assert.equal((JSON.parse(file.stdout) as { robots: string }).robots, join(dir, 'robots.txt'));
});

test('a path is still a path, and a word is still no URL', async () => {
  const path = await runCli(['check', '--agent', 'a', '/x']);
  assert.equal(path.code, 2);
  assert.match(path.stderr, /is a path/);
  const word = await runCli(['usage', '--agent', 'ExampleBot', 'localhost']);
  assert.equal(word.code, 2);
  assert.match(word.stderr, /not a URL/);
  // A file name that is missing is a file not found, never a site to fetch.
  const missing = await runCli(['lint', 'no-such-file.txt']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no such file/);
});
