import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { BIN, runCli, scratchFiles } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '../../src/core/index.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';
import { childEnv } from '../helpers/child-env.ts';

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

  test('--agent Googlebot/2.1 or a whole User-Agent header is matched as Googlebot, and said so', async () => {
    for (const agent of [
      'Googlebot/2.1',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    ]) {
      const result = await runCli([
        'check',
        '--robots',
        ROBOTS,
        '--agent',
        agent,
        'https://example.com/drafts/x',
      ]);
      assert.equal(result.code, 1, agent);
      assert.match(
        result.stdout,
        /^disallowed\s+https:\/\/example\.com\/drafts\/x\s+line 11: Disallow: \/drafts\/$/m,
      );
      assert.match(
        result.stderr,
        /^repkit: .* is matched as (its|its crawler's) product token "Googlebot"/,
      );
    }
    const none = await runCli([
      'check',
      '--robots',
      ROBOTS,
      '--agent',
      '2bot',
      'https://example.com/x',
    ]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--agent: "2bot" holds no product token/);
  });

  test('a deciding line cut by the 500 KiB limit is said to be cut, in text and JSON', async () => {
    const big = join(ROOT, '../shared/corpus/robots/docs.oracle.com.txt');
    const url = 'https://docs.oracle.com/html/Eggs';
    const human = await runCli(['check', '--robots', big, '--agent', 'Googlebot', url]);
    assert.match(
      human.stdout,
      /line 19134: Disallow: \/html\/E \(line cut by the 500 KiB limit: read only this far\)/,
    );
    const json = JSON.parse(
      (await runCli(['check', '--robots', big, '--agent', 'Googlebot', '--json', url])).stdout,
    ) as { line: number; lineCut?: boolean };
    assert.deepEqual([json.line, json.lineCut], [19134, true]);
    const explained = await runCli(['explain', '--robots', big, '--agent', 'Googlebot', url]);
    assert.match(
      explained.stdout,
      /note\s+line 19134 is cut by the 500 KiB limit: Google reads only "\/html\/E"/,
    );
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
    // The rule is the same object the library (and the service) give.
    const robots = parse(readFileSync(join(ROOT, ROBOTS)));
    assert.deepEqual(records[0]!.rule, robots.explain('/private/x', 'SomeBot').rule);
    assert.equal(records[3]!.rule, undefined);
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

  test('the built binary runs by its shebang, as npx runs it', () => {
    const result = spawnSync(BIN, ['check', '--robots', ROBOTS, '--agent', 'GPTBot', '/x'], {
      cwd: ROOT,
      env: childEnv(),
      encoding: 'utf8',
    });
    assert.equal(result.error, undefined, String(result.error));
    assert.equal(result.status, 1);
    assert.match(result.stdout, /disallowed\s+\/x\s+line 16: Disallow: \//);
  });

  test('--help shows examples and exit codes', async () => {
    const result = await runCli(['check', '--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /Examples:/);
    assert.match(result.stdout, /Exit status/);
  });
});

describe('repkit check without --robots: fetched through repkit/fetch', () => {
  let server: TestServer;
  before(async () => {
    server = await httpServer(
      robotsRoute((_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /private\n')),
    );
  });
  after(() => server.close());

  test('fetches the robots.txt once per origin and reports where the verdict came from', async () => {
    const result = await runCli([
      'check',
      '--agent',
      'Bot',
      '--json',
      `${server.origin}/private/x`,
      `${server.origin}/ok`,
    ]);
    assert.equal(result.code, 1);
    const records = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      records.map((r) => [r.url, r.allowed, r.line, r.status, r.robotsUrl]),
      [
        [`${server.origin}/private/x`, false, 2, 200, `${server.origin}/robots.txt`],
        [`${server.origin}/ok`, true, 0, 200, `${server.origin}/robots.txt`],
      ],
    );
    assert.equal(server.requests.length, 1);
    assert.match(String(server.requests[0]!.headers['user-agent']), /^repkit\//);
  });

  test('a server that cannot be reached is a verdict (disallowed), not a crash; exit 3, not 1', async () => {
    const result = await runCli(['check', '--agent', 'Bot', '--json', 'http://127.0.0.1:1/x']);
    // 3: nothing is disallowed by a file, a robots.txt could not be read (ask again later).
    assert.equal(result.code, 3);
    const record = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.deepEqual(
      [record.allowed, record.reason, record.status, record.errorCode],
      [false, 'robots-txt-unreachable', 0, 'ECONNREFUSED'],
    );
    // explain and fetch say the failure by the same code.
    const explained = await runCli(['explain', '--agent', 'Bot', '--json', 'http://127.0.0.1:1/x']);
    const fetch = (JSON.parse(explained.stdout) as { fetch: Record<string, unknown> }).fetch;
    assert.deepEqual([fetch.outcome, fetch.errorCode], ['error', 'ECONNREFUSED']);
    const fetched = await runCli(['fetch', '--json', 'http://127.0.0.1:1/']);
    const report = JSON.parse(fetched.stdout) as Record<string, unknown>;
    assert.deepEqual([report.outcome, report.errorCode], ['error', 'ECONNREFUSED']);
  });

  test('a URL disallowed by its file is 1 even beside an unreachable one', async () => {
    const result = await runCli([
      'check',
      '--agent',
      'Bot',
      // Port 1 refuses at once; the loopback site is given the default timeout, however
      // busy the machine.
      `${server.origin}/private/x`,
      'http://127.0.0.1:1/x',
    ]);
    assert.equal(result.code, 1);
  });

  test("--robots <a site's URL> with another site's URL says which origin the file governs", async () => {
    const result = await runCli([
      'check',
      '--agent',
      'Bot',
      '--robots',
      `${server.origin}/`,
      'https://other.example/private/x',
      `${server.origin}/private/y`,
    ]);
    assert.equal(result.code, 1);
    const notes = result.stderr.trim().split('\n');
    assert.equal(notes.length, 1, result.stderr);
    assert.match(
      notes[0]!,
      new RegExp(
        `note: https://other\\.example/private/x is judged against ${server.origin.replace(/\./g, '\\.')}/robots\\.txt, which governs`,
      ),
    );
  });

  test('fetch reads a bare domain as its https site, with a note; other words stay errors', async () => {
    const bare = await runCli(['fetch', '--timeout', '300', 'no-such-host.invalid']);
    assert.match(
      bare.stderr,
      /note: read no-such-host\.invalid as https:\/\/no-such-host\.invalid\//,
    );
    assert.doesNotMatch(bare.stderr, /not a URL/);
    const word = await runCli(['fetch', 'robots']);
    assert.equal(word.code, 2);
    assert.match(word.stderr, /not a URL: "robots"/);
  });

  test('a path without --robots is a usage error', async () => {
    const result = await runCli(['check', '--agent', 'Bot', '/x']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /is a path: give --robots <file>/);
  });
});

test('check: without --agent, the --user-agent header names the crawler; without either, a usage error', async () => {
  const robots = scratchFiles('repkit-ua-')(
    'robots.txt',
    'User-agent: ExampleBot\nDisallow: /own/\n\nUser-agent: *\nDisallow: /x\n',
  );
  const named = await runCli([
    'check',
    '--robots',
    robots,
    '--user-agent',
    'ExampleBot/1.0 (+https://example.com/bot)',
    '--json',
    '/own/a',
  ]);
  assert.equal(named.code, 1, named.stderr);
  const record = JSON.parse(named.stdout) as { agent: string[]; line: number };
  assert.deepEqual([record.agent, record.line], [['ExampleBot'], 2]);
  const neither = await runCli(['check', '--robots', robots, '/own/a']);
  assert.equal(neither.code, 2);
  assert.match(neither.stderr, /give the crawler to ask about: --agent <name>/);
});
