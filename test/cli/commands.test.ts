/**
 * Every command of the built `repkit` binary, end to end, against files and against a real
 * HTTP server on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { BIN, jsonLines, runCli, scratchFiles } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';
import { httpServer, robotsRoute, type TestServer } from '../helpers/servers.ts';
import { redirectedRobotsSite } from './site.ts';
import { childEnv } from '../helpers/child-env.ts';

const ROBOTS = 'examples/robots.txt';
const file = scratchFiles('repkit-cli-');

let server: TestServer;
before(async () => {
  server = await redirectedRobotsSite();
});
after(() => server.close());

describe('repkit explain', () => {
  test('the group, every matching rule with its length, the winner and the verdict', async () => {
    const result = await runCli([
      'explain',
      '--robots',
      ROBOTS,
      '--agent',
      'Googlebot',
      'https://example.com/drafts/',
    ]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /group\s+group naming Googlebot: line 9 \(Googlebot, Bingbot\)/);
    assert.match(result.stdout, /matches\s+line 11\s+disallow \/drafts\/\s+length 8/);
    assert.match(
      result.stdout,
      /line 12\s+allow\s+\/drafts\/index\.html \(matched as \/drafts\/\$: index\.html also allows the directory\)\s+length 9/,
    );
    assert.match(
      result.stdout,
      /verdict\s+allowed: allowed-by-rule \(line 12: Allow: \/drafts\/index\.html\)/,
    );
  });

  test('the * group rules a crawler with its own group ignores are named', async () => {
    const robots = file(
      'trap.txt',
      'User-agent: *\nDisallow: /private/\nDisallow: /private/old/\n\nUser-agent: Googlebot\nDisallow: /tmp/\n',
    );
    const result = await runCli([
      'explain',
      '--robots',
      robots,
      '--agent',
      'Googlebot',
      '/private/old/a',
    ]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /verdict\s+allowed: no-matching-rule/);
    assert.match(
      result.stdout,
      /note\s+the \* group's line 2 \(Disallow: \/private\/\), line 3 \(Disallow: \/private\/old\/\) match this path too, but do not apply: a crawler with a group of its own ignores the \* group/,
    );
    // Nothing to say where the * group would not have matched, or applies.
    const other = await runCli(['explain', '--robots', robots, '--agent', 'Googlebot', '/public']);
    assert.doesNotMatch(other.stdout, /note/);
    const star = await runCli(['explain', '--robots', robots, '--agent', 'Otherbot', '/private/a']);
    assert.doesNotMatch(star.stdout, /note/);
  });

  test('a tie-break, and the * group when no group names the agent; exit 1 when disallowed', async () => {
    const robots = file(
      'tie.txt',
      'User-agent: *\nAllow: /folder\nDisallow: /folder\n\nUser-agent: other\nDisallow: /\n',
    );
    const tie = await runCli(['explain', '--robots', robots, '--agent', 'Somebot', '/folder/page']);
    assert.equal(tie.code, 0);
    assert.match(tie.stdout, /no group names Somebot, so the \* group: line 1/);
    assert.match(tie.stdout, /tie with a disallow of the same length: allow wins/);
    const blocked = await runCli([
      'explain',
      '--robots',
      robots,
      '--agent',
      'other',
      '--json',
      '/x',
    ]);
    assert.equal(blocked.code, 1);
    const json = JSON.parse(blocked.stdout) as {
      allowed: boolean;
      line: number;
      explanation: { group: { scope: string } };
    };
    assert.deepEqual(
      [json.allowed, json.line, json.explanation.group.scope],
      [false, 6, 'specific'],
    );
  });

  test('with the fetch state when the robots.txt is fetched', async () => {
    const result = await runCli([
      'explain',
      '--agent',
      'GPTBot',
      '--json',
      `${server.origin}/article`,
    ]);
    assert.equal(result.code, 1);
    const json = JSON.parse(result.stdout) as {
      fetch: { status: number; chain: string[]; source: string };
      line: number;
    };
    assert.deepEqual(
      [json.fetch.status, json.fetch.chain.length, json.fetch.source, json.line],
      [200, 2, 'fetched', 6],
    );
  });
});

describe('repkit lint', () => {
  test('several files in one run: a report each, the verdict agreeing with what follows', async () => {
    const broken = file('broken.txt', 'Disallow: /a\nUser-agent: *\nDisallow: /b\n');
    const empty = file('empty.txt', '');
    const result = await runCli(['lint', broken, empty, ROBOTS]);
    assert.equal(result.code, 1, 'errors in one file');
    const reports = result.stdout.split('\n\n').filter((r) => !/^\d+ error/.test(r.trim()));
    assert.match(reports[0]!, /^.*broken\.txt: 1 error\(s\)/);
    assert.match(result.stdout, /\nexamples\/robots\.txt: no problems found; 1 note\(s\)\n/);
    // Only notes: the verdict says there are some.
    assert.match(
      result.stdout,
      /empty\.txt: no problems found; 1 note\(s\)\n.*empty\.txt:1:1 +info +an empty file/,
    );
    const json = await runCli(['lint', broken, empty, '--json']);
    assert.deepEqual(
      jsonLines(json.stdout).map((r) => [r.robots, r.errors]),
      [
        [broken, 1],
        [empty, 0],
      ],
    );
  });

  test('diagnostics with line, column, severity and code; exit 1 on errors', async () => {
    const robots = file(
      'lint.txt',
      'Disallow: /early\nUser-agent: *\nDisalow: /typo\nCrawl-delay: 5\nSitemap: /relative.xml\n',
    );
    const result = await runCli(['lint', robots]);
    assert.equal(result.code, 1);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines[0], `${robots}: 2 error(s): Google ignores or misreads part of it`);
    assert.match(
      lines[1]!,
      new RegExp(
        `^${robots.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1:1\\s+error\\s+disallow before any user-agent line: Google ignores it\\s+rule-outside-group$`,
      ),
    );
    assert.ok(lines.some((l) => /:3:1\s+warning\s+"Disalow" is read as "disallow".*typo$/.test(l)));
    assert.ok(
      lines.some((l) => /:4:1\s+info\s+Google ignores "crawl-delay".*ignored-by-google$/.test(l)),
    );
    assert.ok(lines.some((l) => /:5:10\s+error\s+.*relative-sitemap$/.test(l)));
    assert.equal(lines.at(-1), '2 error(s), 1 warning(s), 1 note(s)');
    const quiet = await runCli(['lint', robots, '--quiet']);
    assert.deepEqual(
      quiet.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/).at(-1)),
      ['it', 'rule-outside-group', 'relative-sitemap', '', 'note(s)'],
    );
  });

  test('a file that is not a robots.txt: the verdict first, one error, exit 1', async () => {
    for (const [name, code] of [
      ['store.usps.com.txt', 'utf-16'],
      ['www.hermes.com.txt', 'html-content'],
    ] as const) {
      const path = join(ROOT, '../shared/corpus/robots', name);
      const result = await runCli(['lint', path]);
      assert.equal(result.code, 1, name);
      const lines = result.stdout.trim().split('\n');
      assert.equal(lines[0], `${path}: not a robots.txt Google can use (${code})`);
      assert.match(lines[1]!, new RegExp(`error .* ${code}$`));
    }
  });

  test('a clean file: exit 0; --json gives the report', async () => {
    const clean = await runCli(['lint', ROBOTS]);
    assert.equal(clean.code, 0);
    const json = await runCli(['lint', ROBOTS, '--json']);
    const report = JSON.parse(json.stdout) as { errors: number; diagnostics: { code: string }[] };
    assert.equal(report.errors, 0);
    assert.deepEqual(
      report.diagnostics.map((d) => d.code),
      ['ignored-by-google'],
    );
  });

  test('a URL: the fetched robots.txt is linted; a missing one is an input error', async () => {
    const result = await runCli(['lint', `${server.origin}/`, '--json']);
    assert.equal(result.code, 0);
    assert.equal(
      (JSON.parse(result.stdout) as { robots: string }).robots,
      `${server.origin}/robots.txt`,
    );
    const missing = await runCli(['lint', 'no-such-file.txt']);
    assert.deepEqual(
      [missing.code, missing.stderr.trim()],
      [2, 'repkit: cannot read no-such-file.txt: no such file'],
    );
  });
});

describe('repkit fetch', () => {
  test('a site answering its robots.txt with an HTML page: fetch warns', async () => {
    const page = await httpServer(
      robotsRoute((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><html><head></head><body>Welcome</body></html>'),
      ),
    );
    try {
      const human = await runCli(['fetch', page.origin]);
      assert.match(
        human.stdout,
        /warning\s+the body is not a robots\.txt Google can use \(an HTML page: html-content\): no rule in it applies/,
      );
      const json = JSON.parse((await runCli(['fetch', page.origin, '--json'])).stdout) as {
        warning?: string;
        notRobotsTxt?: string;
      };
      assert.match(json.warning!, /HTML page/);
      assert.equal(json.notRobotsTxt, 'html-content', 'as check --json names it');
      const plain = await runCli(['fetch', server.origin]);
      assert.doesNotMatch(plain.stdout, /warning/);
    } finally {
      await page.close();
    }
  });

  test('a robots.txt in UTF-16: fetch flags it as check does', async () => {
    const text = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('User-agent: *\nDisallow: /private/\n', 'utf16le'),
    ]);
    const utf16 = await httpServer(robotsRoute((_req, res) => res.writeHead(200).end(text)));
    try {
      const human = await runCli(['fetch', utf16.origin]);
      assert.match(human.stdout, /warning\s+the body is not a robots\.txt Google can use \(UTF-16/);
      const check = await runCli(['check', '--json', '--agent', 'a', `${utf16.origin}/private/x`]);
      assert.equal((JSON.parse(check.stdout) as { notRobotsTxt: string }).notRobotsTxt, 'utf-16');
      const json = JSON.parse((await runCli(['fetch', utf16.origin, '--json'])).stdout) as {
        notRobotsTxt?: string;
      };
      assert.equal(json.notRobotsTxt, 'utf-16');
    } finally {
      await utf16.close();
    }
  });

  test('status, redirects, cache headers, lifetime, then the groups', async () => {
    const result = await runCli(['fetch', `${server.origin}/some/page`]);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /robots\s+http:\/\/127\.0\.0\.1:\d+\/robots\.txt/);
    assert.match(result.stdout, /result\s+HTTP 200, fetched/);
    // Every line it prints is labelled: each redirect hop, each header, each rule's line.
    assert.match(result.stdout, /redirect 1\s+→ http:\/\/127\.0\.0\.1:\d+\/real-robots\.txt/);
    assert.match(result.stdout, /header\s+cache-control: max-age=7200/);
    assert.match(result.stdout, /header\s+content-type: text\/plain/);
    assert.match(result.stdout, /cache for\s+2 h/);
    assert.match(
      result.stdout,
      /group 2\s+line 5\s+user-agent: GPTBot\n\s+line\s+6\s+disallow \/\n/,
    );
    assert.match(result.stdout, /sitemap\s+https:\/\/example\.com\/s\.xml/);
  });

  test('--json; a server error exits 1', async () => {
    const json = JSON.parse(
      (await runCli(['fetch', `${server.origin}/`, '--json'])).stdout,
    ) as Record<string, unknown>;
    assert.deepEqual(
      [json.status, json.lifetimeMs, (json.groups as unknown[]).length],
      [200, 7_200_000, 2],
    );
    const down = await runCli(['fetch', 'http://127.0.0.1:1/', '--timeout', '500']);
    assert.equal(down.code, 1);
    assert.match(down.stdout, /unreachable .*everything disallowed for now/);
  });
});

describe('conventions', () => {
  test('every command has --help with examples and its exit statuses', async () => {
    for (const command of [
      'check',
      'explain',
      'lint',
      'fetch',
      'diff',
      'batch',
      'agents',
      'usage',
      'meta',
      'serve',
      'test',
    ]) {
      const result = await runCli([command, '--help']);
      assert.equal(result.code, 0, command);
      assert.match(result.stdout, /Examples?:/, command);
      assert.match(result.stdout, /Exit status: 0 /, command);
    }
  });

  test('colour only on a terminal, not with NO_COLOR, and anywhere with FORCE_COLOR', async () => {
    const ESC = String.fromCharCode(27);
    const piped = (env: Record<string, string>) =>
      runCli(['check', '--robots', ROBOTS, '--agent', 'GPTBot', '/x'], { env });
    assert.ok(!(await piped({ NO_COLOR: '' })).stdout.includes(ESC));
    // FORCE_COLOR turns colour on in a pipe (a CI log), over NO_COLOR; 0 or false keep it off.
    assert.ok((await piped({ FORCE_COLOR: '1' })).stdout.includes(`${ESC}[31mdisallowed`));
    assert.ok((await piped({ FORCE_COLOR: '1', NO_COLOR: '1' })).stdout.includes(ESC));
    assert.ok(!(await piped({ FORCE_COLOR: '0', NO_COLOR: '' })).stdout.includes(ESC));
    assert.ok(!(await piped({ FORCE_COLOR: 'false', NO_COLOR: '' })).stdout.includes(ESC));
    // `script` runs the command on a pseudo-terminal.
    const onTerminal = (env: string) =>
      spawnSync(
        'script',
        [
          '-qec',
          `FORCE_COLOR= ${env} ${process.execPath} ${BIN} check --robots ${ROBOTS} --agent GPTBot /x`,
          '/dev/null',
        ],
        {
          encoding: 'utf8',
          cwd: ROOT,
          env: childEnv(),
        },
      ).stdout;
    assert.ok(onTerminal('NO_COLOR=').includes(`${ESC}[31mdisallowed`));
    assert.ok(!onTerminal('NO_COLOR=1').includes(ESC));
  });

  test('a directory given for a file: every command that reads one says so (exit 2)', async () => {
    // `meta` streamed the file lazily and met EISDIR as an internal error (exit 70).
    const dir = 'test/fixtures';
    const runs: string[][] = [
      ['meta', dir, '--agent', 'Googlebot'],
      ['lint', dir],
      ['agents', dir],
      ['check', '--agent', 'Googlebot', '--robots', dir, '/x'],
      ['explain', '--agent', 'Googlebot', '--robots', dir, '/x'],
      ['diff', dir, ROBOTS, '--agent', 'Googlebot'],
      ['diff', ROBOTS, ROBOTS, '--agent', 'Googlebot', '--urls', dir],
      ['diff', ROBOTS, ROBOTS, '--agent', 'Googlebot', '--spec', dir],
      ['test', dir],
      ['lint', ROBOTS, '--config', dir],
    ];
    for (const args of runs) {
      const result = await runCli(args);
      assert.deepEqual(
        [result.code, result.stderr.trim()],
        [2, `repkit: cannot read ${dir}: is a directory`],
        args.join(' '),
      );
    }
    // Standard input that is a directory: Node ends it quietly, and read as an empty file it
    // allowed every URL.
    const fd = openSync(dir, 'r');
    try {
      const run = spawnSync(
        process.execPath,
        [BIN, 'check', '--agent', 'Googlebot', '--robots', '-', '/x'],
        {
          stdio: [fd, 'pipe', 'pipe'],
          encoding: 'utf8',
          cwd: ROOT,
          env: childEnv(),
          timeout: 240_000,
        },
      );
      assert.deepEqual(
        [run.status, run.stdout, run.stderr.trim()],
        [2, '', 'repkit: cannot read standard input: is a directory'],
      );
    } finally {
      closeSync(fd);
    }
  });

  const endless = '/dev/zero';
  test(
    'a spec or configuration file longer than 8 MiB is refused, not read until memory runs out',
    {
      skip: existsSync(endless) ? false : `no ${endless} here`,
    },
    async () => {
      // `lint --config /dev/zero` aborted the process (std::bad_alloc); `test /dev/zero` read
      // half a gigabyte before failing on its string.
      const runs: string[][] = [
        ['test', endless],
        ['lint', ROBOTS, '--config', endless],
        ['diff', ROBOTS, ROBOTS, '--agent', 'Googlebot', '--spec', endless],
      ];
      for (const args of runs) {
        const result = await runCli(args);
        assert.deepEqual(
          [result.code, result.stderr.trim()],
          [2, `repkit: cannot read ${endless}: longer than 8 MiB`],
          args.join(' '),
        );
      }
    },
  );

  test('an unknown command or option is a usage error (exit 2)', async () => {
    assert.equal((await runCli(['frobnicate'])).code, 2);
    assert.equal((await runCli(['lint', ROBOTS, '--bogus'])).code, 2);
  });

  test('under --json an error is one JSON object on stdout, with its code and exit status', async () => {
    // A usage error found by the argument parser, and one found by the command.
    const unknown = await runCli(['lint', ROBOTS, '--json', '--bogus']);
    assert.equal(unknown.code, 2);
    assert.deepEqual(JSON.parse(unknown.stdout), {
      error: { code: 'unknown-option', message: "unknown option '--bogus'", exitCode: 2 },
    });
    assert.equal(unknown.stderr, '');
    const missing = await runCli([
      'check',
      '--json',
      '--agent',
      'x',
      '--robots',
      'no-such-file.txt',
      '/x',
    ]);
    assert.equal(missing.code, 2);
    const { error } = JSON.parse(missing.stdout) as { error: Record<string, unknown> };
    assert.equal(error.code, 'cli');
    assert.equal(error.exitCode, 2);
    assert.match(String(error.message), /no-such-file\.txt/);
    assert.equal(missing.stderr, '');
    // Without --json, the same error is one line on stderr, and nothing on stdout.
    const plain = await runCli(['check', '--agent', 'x', '--robots', 'no-such-file.txt', '/x']);
    assert.equal(plain.stdout, '');
    assert.match(plain.stderr, /^repkit: .*no-such-file\.txt/);
  });
});

test('batch, which writes JSON only, takes no --json that would do nothing', async () => {
  const help = await runCli(['batch', '--help']);
  assert.doesNotMatch(help.stdout, /^\s+--json\b/m);
  const given = await runCli(['batch', '--agent', 'Bot', '--json'], { stdin: '' });
  assert.equal(given.code, 2);
  // Asked for JSON, the error is JSON too (see the --json error test).
  const { error } = JSON.parse(given.stdout) as { error: { code: string; message: string } };
  assert.deepEqual(error.code, 'unknown-option');
  assert.match(error.message, /unknown option '--json'/);
});
