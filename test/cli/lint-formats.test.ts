/**
 * `repkit lint --format sarif|github`: the SARIF log validated against the SARIF 2.1.0 schema
 * by Microsoft's SARIF multitool (its `validate` checks the schema and SARIF's own rules),
 * and GitHub annotations at each diagnostic's file, line and column.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, relative as relativePath } from 'node:path';
import { test } from 'node:test';
import { runCli, scratchFiles } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';

const file = scratchFiles('repkit-lint-formats-');

test('--format sarif: a SARIF 2.1.0 log the multitool validates, a result per diagnostic', async () => {
  const result = await runCli([
    'lint',
    'examples/lint-demo.txt',
    'examples/robots.txt',
    '--format',
    'sarif',
  ]);
  assert.equal(result.code, 1, 'lint-demo.txt has errors');
  const log = JSON.parse(result.stdout) as {
    version: string;
    runs: {
      tool: {
        driver: {
          rules: {
            id: string;
            shortDescription: { text: string };
            help: { text: string; markdown: string };
            helpUri: string;
          }[];
        };
      };
      results: {
        ruleId: string;
        level: string;
        locations: {
          physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
        }[];
      }[];
    }[];
  };
  assert.equal(log.version, '2.1.0');
  // Each rule says what it finds, as a reader of the scan sees it beside a result.
  const rules = log.runs[0]!.tool.driver.rules;
  const outside = rules.find((r) => r.id === 'rule-outside-group')!;
  assert.equal(outside.shortDescription.text, 'a rule before any user-agent (ignored)');
  assert.match(outside.help.text, /a rule before any user-agent/);
  assert.match(outside.help.markdown, /\*\*rule-outside-group\*\*/);
  assert.match(outside.helpUri, /^https:\/\//);
  for (const rule of rules) assert.notEqual(rule.shortDescription.text, rule.id, rule.id);
  const results = log.runs[0]!.results;
  assert.equal(results.length, 9, '8 in lint-demo.txt, 1 note in robots.txt');
  assert.deepEqual(
    [
      results[0]!.ruleId,
      results[0]!.level,
      results[0]!.locations[0]!.physicalLocation.region.startLine,
    ],
    ['rule-outside-group', 'error', 1],
  );
  assert.equal(
    results.at(-1)!.locations[0]!.physicalLocation.artifactLocation.uri,
    'examples/robots.txt',
  );
  const sarif = file('lint.sarif', result.stdout);
  const report = execFileSync(
    join(ROOT, 'node_modules/.bin/sarif-multitool'),
    ['validate', sarif],
    {
      encoding: 'utf8',
    },
  );
  assert.doesNotMatch(report, /: (error|warning) /, report);
  assert.match(report, /1 files scanned/);
});

test('--format github: an annotation per diagnostic, error, warning or notice', async () => {
  const robots = file('gh.txt', 'Disallow: /x\nUser-agent: *\nCrawl-delay: 5\nDisallow: /y\n');
  const result = await runCli(['lint', robots, '--format', 'github']);
  assert.equal(result.code, 1);
  assert.deepEqual(result.stdout.trim().split('\n'), [
    `::error file=${robots},line=1,col=1,title=rule-outside-group::disallow before any user-agent line: Google ignores it`,
    `::notice file=${robots},line=3,col=1,title=ignored-by-google::Google ignores "crawl-delay"; Bing and Yandex read it`,
  ]);
  const bad = await runCli(['lint', robots, '--format', 'xml']);
  assert.equal(bad.code, 2);
});

test('--format sarif: artifact URIs are URI references, %-encoded where a path needs it', async () => {
  const odd = file('a b#c?d%é.txt', 'User-agent: *\nDisallow /x\n');
  const relative = relativePath(ROOT, odd);
  const result = await runCli(['lint', relative, odd, '--format', 'sarif']);
  const log = JSON.parse(result.stdout) as {
    runs: {
      results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
    }[];
  };
  const uris = log.runs[0]!.results.map(
    (r) => r.locations[0]!.physicalLocation.artifactLocation.uri,
  );
  const encoded = 'a%20b%23c%3Fd%25%C3%A9.txt';
  assert.ok(
    uris.some((u) => !u.startsWith('file:') && u.endsWith(`/${encoded}`)),
    uris.join(),
  );
  assert.ok(
    uris.some((u) => u.startsWith('file:///') && u.endsWith(`/${encoded}`)),
    uris.join(),
  );
  for (const uri of uris) {
    // Each parses as a URI reference and decodes back to the path given.
    const parsed = new URL(uri, 'file:///root/');
    assert.ok(decodeURIComponent(parsed.pathname).endsWith('/a b#c?d%é.txt'), uri);
    assert.equal(parsed.search + parsed.hash, '', uri);
  }
});
