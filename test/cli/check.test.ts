import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

const ROBOTS = 'examples/robots.txt';

describe('repkit check --robots <file>', () => {
  test('prints each verdict with the deciding line; exit 1 when one is disallowed', async () => {
    const result = await runCli([
      'check',
      '--robots',
      ROBOTS,
      '--agent',
      'Googlebot',
      'https://example.com/drafts/',
      'https://example.com/drafts/x',
    ]);
    assert.equal(result.code, 1);
    const lines = result.stdout.trim().split('\n');
    assert.match(
      lines[0]!,
      /^allowed\s+https:\/\/example\.com\/drafts\/\s+line 12: Allow: \/drafts\/index\.html$/,
    );
    assert.match(
      lines[1]!,
      /^disallowed\s+https:\/\/example\.com\/drafts\/x\s+line 11: Disallow: \/drafts\/$/,
    );
    assert.equal(result.stderr, '');
  });

  test('--json: one object per URL, in input order, with url, allowed and line', async () => {
    const urls = ['/private/x', '/private/press/y', '/a.pdf', '/z'];
    const result = await runCli([
      'check',
      '--robots',
      ROBOTS,
      '--agent',
      'SomeBot',
      '--json',
      ...urls,
    ]);
    assert.equal(result.code, 1);
    const records = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      records.map((r) => [r.url, r.allowed, r.line]),
      [
        ['/private/x', false, 3],
        ['/private/press/y', true, 4],
        ['/a.pdf', false, 5],
        ['/z', true, 0],
      ],
    );
  });

  test('several agents act as one crawler; exit 0 when everything is allowed', async () => {
    const result = await runCli([
      'check',
      '--robots',
      ROBOTS,
      '--agent',
      'Nobody,Bingbot',
      '--json',
      '/private/x',
    ]);
    assert.equal(result.code, 0);
    assert.equal((JSON.parse(result.stdout) as { allowed: boolean }).allowed, true);
  });

  test('bad input: one line on stderr naming it, exit 2, no stack trace', async () => {
    const missing = await runCli(['check', '--robots', 'no/such/file.txt', '--agent', 'x', '/a']);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr.trim(), 'repkit: cannot read no/such/file.txt: no such file');
    const badUrl = await runCli(['check', '--robots', ROBOTS, '--agent', 'x', 'ht!tp:/x']);
    assert.equal(badUrl.code, 2);
    assert.match(badUrl.stderr, /not a URL: "ht!tp:\/x"/);
    const noAgent = await runCli(['check', '--robots', ROBOTS, '/a']);
    assert.equal(noAgent.code, 2);
    assert.doesNotMatch(noAgent.stderr + badUrl.stderr + missing.stderr, /\n\s+at /);
    const badProfile = await runCli([
      'check',
      '--robots',
      ROBOTS,
      '--agent',
      'x',
      '--profile',
      'bing',
      '/a',
    ]);
    assert.equal(badProfile.code, 2);
    assert.match(badProfile.stderr, /--profile must be one of google, rfc9309, legacy/);
  });

  test('--help shows examples and exit codes', async () => {
    const result = await runCli(['check', '--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /Examples:/);
    assert.match(result.stdout, /Exit status/);
  });
});
