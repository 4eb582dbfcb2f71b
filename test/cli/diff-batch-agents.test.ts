/**
 * The built `repkit` binary's diff, batch and agents commands, end to end, against files and
 * against a real HTTP server on 127.0.0.1 (the other commands: commands.test.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import MarkdownIt from 'markdown-it';
import { after, before, describe, test } from 'node:test';
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

describe('repkit diff', () => {
  test('which URLs change verdict, per crawler; exit 1 when some do', async () => {
    const next = file(
      'new.txt',
      'User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /drafts/\nDisallow: /beta/\n',
    );
    const urls = file('urls.txt', '# what matters\n/drafts/index.html\n/beta/x\n/private/x\n\n');
    const result = await runCli([
      'diff',
      ROBOTS,
      next,
      '--urls',
      urls,
      '--agent',
      'Googlebot',
      '--json',
    ]);
    assert.equal(result.code, 1);
    assert.deepEqual(
      jsonLines(result.stdout).map((c) => [
        c.agent,
        c.url,
        (c.before as { allowed: boolean }).allowed,
        (c.after as { allowed: boolean }).allowed,
      ]),
      [
        [['Googlebot'], '/drafts/index.html', true, false],
        [['Googlebot'], '/beta/x', true, false],
      ],
    );
    // Each side in the shape of a check's verdict, with why (and the rule when one decided).
    type Side = { reason: string; rule?: { value: string } };
    const first = jsonLines(result.stdout)[0]! as { before: Side; after: Side };
    assert.deepEqual(
      [first.before.reason, first.before.rule?.value],
      ['allowed-by-rule', '/drafts/index.html'],
    );
    assert.deepEqual(
      [first.after.reason, first.after.rule?.value],
      ['disallowed-by-rule', '/drafts/'],
    );
  });

  test("without --urls: paths taken from both files' rules meet every changed rule", async () => {
    const old = file('old5.txt', 'User-agent: *\nDisallow: /private/\n');
    const next = file(
      'new5.txt',
      'User-agent: *\nDisallow: /private/\nDisallow: /*.css$\nAllow: /private/press/\n',
    );
    const result = await runCli(['diff', old, next, '--json']);
    assert.equal(result.code, 1);
    assert.deepEqual(
      jsonLines(result.stdout).map((c) => [c.url, (c.after as { allowed: boolean }).allowed]),
      [
        ['/x.css', false],
        ['/private/press/', true],
        ['/private/press/x', true],
      ],
    );
    const text = await runCli(['diff', old, next]);
    assert.match(text.stdout, /3 change\(s\) in 7 path\(s\) from the files' rules × 1 crawler/);
  });

  test('--urls - reads the URLs from stdin; --summary counts changes by crawler and rules', async () => {
    const next = file('new6.txt', 'User-agent: *\nDisallow: /a/\nDisallow: /b/\n');
    const stdin = ['/a/1', '/a/2', '/a/3', '/b/1', '/c/1'].join('\n') + '\n';
    const listed = await runCli(['diff', ROBOTS, next, '--urls', '-', '--agent', 'x', '--json'], {
      stdin,
    });
    assert.equal(listed.code, 1);
    assert.deepEqual(
      jsonLines(listed.stdout).map((c) => c.url),
      ['/a/1', '/a/2', '/a/3', '/b/1'],
    );
    const summary = await runCli(
      ['diff', ROBOTS, next, '--urls', '-', '--agent', 'x', '--summary', '--json'],
      { stdin },
    );
    assert.equal(summary.code, 1);
    const ruleAt = (line: number, value: string) => ({
      kind: 'disallow',
      line,
      value,
      pattern: value,
      length: value.length,
    });
    const RULE_A = ruleAt(2, '/a/');
    const RULE_B = ruleAt(3, '/b/');
    assert.deepEqual(jsonLines(summary.stdout), [
      {
        agent: ['x'],
        count: 3,
        before: { allowed: true, line: 0, reason: 'no-matching-rule' },
        after: { allowed: false, line: 2, reason: 'disallowed-by-rule', rule: RULE_A },
        example: '/a/1',
      },
      {
        agent: ['x'],
        count: 1,
        before: { allowed: true, line: 0, reason: 'no-matching-rule' },
        after: { allowed: false, line: 3, reason: 'disallowed-by-rule', rule: RULE_B },
        example: '/b/1',
      },
    ]);
    const text = await runCli(['diff', ROBOTS, next, '--urls', '-', '--agent', 'x', '--summary'], {
      stdin,
    });
    assert.match(
      text.stdout,
      /^x\s+3 × allowed → disallowed\s+\(.* → line 2: disallow: \/a\/; e\.g\. \/a\/1\)/m,
    );
    assert.match(text.stdout, /4 change\(s\) in 5 URL\(s\) × 1 crawler\(s\): x$/m);
  });

  test('--format markdown: a pull request comment, changes by crawler and rule', async () => {
    const old = file('old-md.txt', 'User-agent: *\nDisallow: /a|b/\n');
    const next = file('new-md.txt', 'User-agent: *\nDisallow: /a|b/\nDisallow: /cart\n');
    const result = await runCli(['diff', old, next, '--format', 'markdown']);
    assert.equal(result.code, 1);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines[0], '### robots.txt: 2 verdict change(s)');
    assert.match(
      lines[2]!,
      /^Compared 5 path\(s\) from the files' rules × 1 crawler\(s\): `\*`\.$/,
    );
    assert.equal(lines[4], '| Crawler | Change | URLs | Before | After | Example |');
    assert.equal(
      lines[6],
      '| `*` | **now blocked** | 2 | no-matching-rule | line 3: disallow `/cart` | `/cart` |',
    );
    // URLs from a repkit test spec: only those are compared.
    const spec = file(
      'diff-spec.yaml',
      'robots: x.txt\nexpect:\n  - agent: Googlebot\n    allow: [/cart, /home]\n',
    );
    const fromSpec = await runCli(['diff', old, next, '--spec', spec, '--format', 'markdown']);
    assert.match(
      fromSpec.stdout,
      /^### robots\.txt: 1 verdict change\(s\)\n\nCompared 2 URL\(s\) × 1 crawler/,
    );
    // No change: the heading says so, and there is no table.
    const same = await runCli(['diff', old, old, '--format', 'markdown']);
    assert.equal(same.code, 0);
    assert.match(same.stdout, /^### robots\.txt: no verdict changes\n/);
    assert.doesNotMatch(same.stdout, /\| Crawler/);
  });

  test('--format markdown: rule text and URLs stay code, whatever they hold', async () => {
    // Rule values a request path can match (a backtick is %-encoded in any path sent), and
    // URLs given, which the table shows as they were given.
    const rules = [
      '/a](https://evil.example)',
      '/![x](https://evil.example/i.png)',
      '/@octocat',
      '/c|d',
    ];
    const urls = [
      'https://example.com/a](https://evil.example)`x`',
      'https://example.com/@octocat``',
      'https://example.com/c|d`',
    ];
    const old = file('old-hostile.txt', 'User-agent: *\nAllow: /\n');
    const next = file(
      'new-hostile.txt',
      `User-agent: *\n${rules.map((r) => `Disallow: ${r}`).join('\n')}\n`,
    );
    const probes = await runCli(['diff', old, next, '--format', 'markdown']);
    const given = await runCli(['diff', old, next, '--urls', '-', '--format', 'markdown'], {
      stdin: urls.join('\n'),
    });
    const md = new MarkdownIt();
    const decode = (c: string) =>
      c
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
    for (const [run, shown] of [
      [probes, rules],
      [given, urls],
    ] as const) {
      assert.equal(run.code, 1, run.stderr);
      const html = md.render(run.stdout);
      // GitHub's renderer: no link, image or raw tag comes of the files' text or the URLs.
      assert.doesNotMatch(html, /<a |<img /, html);
      const code = [...html.matchAll(/<code>([^<]*)<\/code>/g)].map((m) => decode(m[1]!));
      for (const value of shown) {
        assert.ok(
          code.some((c) => c.includes(value)),
          `${value} shown as code: ${code.join(' ; ')}`,
        );
      }
    }
  });

  test('an old file that cannot be fetched cannot be compared; a --urls line that is no URL is an error', async () => {
    const down = await httpServer(robotsRoute((_req, res) => res.writeHead(500).end()));
    try {
      const urls = file('urls3.txt', '/private/x\n');
      const result = await runCli(['diff', down.origin, ROBOTS, '--urls', urls]);
      assert.equal(result.code, 2);
      assert.equal(result.stdout, '');
      assert.match(
        result.stderr,
        /^repkit: cannot compare: .*\/robots\.txt is unreachable \(HTTP 500\)/,
      );
    } finally {
      await down.close();
    }
    const bad = file('urls4.txt', '/a\nnot a url\n');
    const result = await runCli(['diff', ROBOTS, ROBOTS, '--urls', bad]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /urls4\.txt:2: not a URL or a path starting with \/: "not a url"/);
  });

  test('each side says what a check says: a page served as robots.txt, a rule the 500 KiB limit cut', async () => {
    const page = file('diff-page.txt', '<!DOCTYPE html>\n<html><body>Not found</body></html>\n');
    const head = 'User-agent: *\n';
    const filler = '#'.repeat(511_983 - head.length - 1) + '\n';
    const cut = file('diff-cut.txt', `${head}${filler}Disallow: /cut-here/only\n`);
    const urls = file('diff-urls.txt', '/drafts/x\n/cut-heX\n');
    const args = ['--urls', urls, '--agent', 'Googlebot'];

    const html = await runCli(['diff', ROBOTS, page, ...args]);
    assert.equal(html.code, 1);
    const [note, change] = html.stdout.split('\n');
    assert.match(
      note!,
      /diff-page\.txt is not a robots\.txt Google can use \(an HTML page: html-content\)/,
    );
    assert.match(
      change!,
      /\/drafts\/x +disallowed → allowed .*no-matching-group: not a robots\.txt \(html-content\)/,
    );
    const [htmlJson] = jsonLines((await runCli(['diff', ROBOTS, page, ...args, '--json'])).stdout);
    assert.deepEqual(htmlJson!.after, {
      allowed: true,
      line: 0,
      reason: 'no-matching-group',
      notRobotsTxt: 'html-content',
    });

    const limited = await runCli(['diff', ROBOTS, cut, ...args]);
    assert.match(
      limited.stdout,
      /\/cut-heX +allowed → disallowed .*line 3: disallow: \/cut-he \(cut by the 500 KiB limit\)/,
    );
    const records = jsonLines((await runCli(['diff', ROBOTS, cut, ...args, '--json'])).stdout);
    const cutChange = records.find((r) => r.url === '/cut-heX') as
      { before: Record<string, unknown>; after: Record<string, unknown> } | undefined;
    assert.deepEqual([cutChange?.after.allowed, cutChange?.after.lineCut], [false, true]);
    assert.equal(cutChange?.before.lineCut, undefined);
    const markdown = await runCli(['diff', ROBOTS, cut, ...args, '--format', 'markdown']);
    assert.match(markdown.stdout, /line 3: disallow `\/cut-he` \(cut by the 500 KiB limit\)/);
  });

  test('without --agent: every crawler either file names, and *; no change exits 0', async () => {
    const urls = file('urls2.txt', '/private/x\n');
    const same = await runCli(['diff', ROBOTS, ROBOTS, '--urls', urls]);
    assert.equal(same.code, 0);
    assert.match(
      same.stdout,
      /0 change\(s\) in 1 URL\(s\) × 5 crawler\(s\): Googlebot, Bingbot, GPTBot, CCBot, \*/,
    );
  });
});

describe('repkit batch', () => {
  test('streams one JSON object per URL line, in input order; a bad line gets an error in its place', async () => {
    const input = [
      'https://example.com/private/a',
      '/drafts/x',
      '# skipped',
      '',
      'not a url',
      '/private/press/y',
    ].join('\n');
    const result = await runCli(['batch', '--agent', 'SomeBot', '--robots', ROBOTS], {
      stdin: input,
    });
    assert.equal(result.code, 2);
    assert.deepEqual(
      jsonLines(result.stdout).map((r) => [r.url, r.allowed, r.line, r.error]),
      [
        ['https://example.com/private/a', false, 3, undefined],
        ['/drafts/x', true, 0, undefined],
        ['not a url', undefined, undefined, 'stdin line 5: not a URL or a path'],
        ['/private/press/y', true, 4, undefined],
      ],
    );
    assert.match(result.stderr, /stdin line 5: not a URL or a path: "not a url"/);
    // The deciding rule is the object check --json gives.
    const [first] = jsonLines(result.stdout);
    assert.deepEqual(first!.rule, {
      kind: 'disallow',
      line: 3,
      value: '/private/',
      pattern: '/private/',
      length: 9,
    });
  });

  test("its records are check --json's: a page served as robots.txt, a deciding line cut by the limit", async () => {
    // An HTML page (no group applies, and the record says why), and a body whose 500 KiB
    // limit cuts the Disallow line that decides (read as `/cut-he`, it disallows more).
    const page = file('page.txt', '<!DOCTYPE html>\n<html><body>Not found</body></html>\n');
    const head = 'User-agent: *\n';
    const filler = '#'.repeat(511_983 - head.length - 1) + '\n';
    const cut = file('cut.txt', `${head}${filler}Disallow: /cut-here/only\n`);
    for (const [robots, urls] of [
      [page, ['/any', 'https://example.com/x']],
      [cut, ['/cut-heX', '/other']],
    ] as const) {
      const batch = await runCli(['batch', '--agent', 'Googlebot', '--robots', robots], {
        stdin: urls.join('\n'),
      });
      const check = await runCli([
        'check',
        '--json',
        '--agent',
        'Googlebot',
        '--robots',
        robots,
        ...urls,
      ]);
      const records = jsonLines(batch.stdout);
      assert.deepEqual(records, jsonLines(check.stdout));
      assert.equal(batch.code, check.code);
    }
    const [pageRecord] = jsonLines(
      (await runCli(['batch', '--agent', 'Googlebot', '--robots', page], { stdin: '/any' })).stdout,
    );
    assert.equal(pageRecord!.notRobotsTxt, 'html-content');
    const [cutRecord] = jsonLines(
      (await runCli(['batch', '--agent', 'Googlebot', '--robots', cut], { stdin: '/cut-heX' }))
        .stdout,
    );
    assert.deepEqual([cutRecord!.allowed, cutRecord!.lineCut], [false, true]);
  });

  test('on a terminal, a warning never shares a line with the progress line', () => {
    const input = file('batch-input.txt', '/private/x\nnot a url\n/drafts/y\n');
    const out = file('batch-out.jsonl', '');
    const run = spawnSync(
      'script',
      [
        '-qec',
        `${process.execPath} ${BIN} batch --agent Bot --robots ${ROBOTS} < ${input} > ${out}`,
        '/dev/null',
      ],
      { encoding: 'utf8', cwd: ROOT, env: childEnv() },
    );
    // The progress line was drawn ("1 URLs ...") and is cleared before the warning.
    assert.match(run.stdout, /\r1 URLs .*\r {40}\rrepkit: stdin line 2: not a URL or a path/s);
    assert.doesNotMatch(run.stdout, /\/s repkit:/);
  });

  test('without --robots: fetched per origin through the cache', async () => {
    const input = Array.from(
      { length: 50 },
      (_, i) => `${server.origin}/${i % 2 ? 'private/' : ''}p${i}`,
    ).join('\n');
    const before = server.requests.length;
    const result = await runCli(['batch', '--agent', 'Bot', '--concurrency', '8'], {
      stdin: input,
    });
    assert.equal(result.code, 1);
    const records = jsonLines(result.stdout);
    assert.equal(records.length, 50);
    assert.deepEqual(
      records.slice(0, 3).map((r) => [r.url, r.allowed]),
      [
        [`${server.origin}/p0`, true],
        [`${server.origin}/private/p1`, false],
        [`${server.origin}/p2`, true],
      ],
    );
    // One robots.txt request and its redirect target, however many URLs.
    assert.equal(server.requests.length - before, 2);
  });
});

describe('repkit agents', () => {
  test('ai.robots.txt crawlers too: names Google cannot match, special cases, who ignores robots.txt', async () => {
    const robots = file(
      'agents.txt',
      'User-agent: *\nDisallow: /\n\nUser-agent: AI2Bot\nDisallow: /\n',
    );
    const result = await runCli(['agents', robots, '--json']);
    const byName = new Map(jsonLines(result.stdout).map((r) => [(r.agent as string[])[0], r]));
    assert.ok(byName.size >= 150);
    const ai2 = byName.get('AI2Bot')!;
    assert.deepEqual([ai2.readsAs, ai2.source, ai2.group], ['AI', 'ai.robots.txt', '*']);
    const ads = byName.get('AdsBot-Google')!;
    assert.deepEqual(
      [ads.allowed, ads.ignoresGlobalGroup],
      [true, true],
      'the * group does not bind it',
    );
    assert.equal(byName.get('Googlebot')!.allowed, false);
    assert.match(
      String((byName.get('Perplexity-User')!.notes as string[])[0]),
      /does not obey robots\.txt/,
    );
    const human = await runCli(['agents', robots]);
    assert.match(human.stdout, /AI2Bot .*read by Google as "AI": it never names this crawler/);
  });

  test('filters by verdict and purpose, a summary by purpose, owners cut at a word', async () => {
    const all = jsonLines((await runCli(['agents', ROBOTS, '--json'])).stdout);
    const blocked = jsonLines((await runCli(['agents', ROBOTS, '--json', '--blocked'])).stdout);
    assert.deepEqual(
      blocked.map((r) => r.agent),
      all.filter((r) => r.allowed === false).map((r) => r.agent),
    );
    assert.ok(blocked.length > 0 && blocked.length < all.length);
    const training = jsonLines(
      (await runCli(['agents', ROBOTS, '--json', '--purpose', 'ai-training,ads'])).stdout,
    );
    assert.ok(training.length > 0);
    assert.ok(training.every((r) => r.purpose === 'ai-training' || r.purpose === 'ads'));
    const human = await runCli(['agents', ROBOTS, '--purpose', 'ai-training', '--allowed']);
    const summary = human.stdout.trim().split('\n').at(-1)!;
    const allowedTraining = all.filter((r) => r.purpose === 'ai-training' && r.allowed).length;
    assert.equal(
      summary,
      `${allowedTraining} crawler(s): 0 blocked, ${allowedTraining} allowed (ai-training: 0 of ${allowedTraining} blocked)`,
    );
    // ai.robots.txt's owners are sentences: cut after a whole word, never inside one.
    const everyone = (await runCli(['agents', ROBOTS])).stdout;
    assert.match(everyone, / Ai2, a non-profit AI… +ai-assistant /);
    assert.doesNotMatch(everyone, /Ai2, a non-profit AI r/);
    const bad = await runCli(['agents', ROBOTS, '--purpose', 'spying']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown purpose "spying"/);
  });

  test('well-known crawlers allowed or blocked on /', async () => {
    const result = await runCli(['agents', ROBOTS, '--json']);
    assert.equal(result.code, 0);
    const byName = new Map(jsonLines(result.stdout).map((r) => [(r.agent as string[])[0], r]));
    assert.ok(byName.size >= 30);
    assert.deepEqual(
      [byName.get('GPTBot')!.allowed, byName.get('GPTBot')!.line, byName.get('GPTBot')!.group],
      [false, 16, 'own'],
    );
    assert.deepEqual(
      [byName.get('Googlebot')!.allowed, byName.get('Googlebot')!.group],
      [true, 'own'],
    );
    assert.deepEqual(
      [byName.get('ClaudeBot')!.allowed, byName.get('ClaudeBot')!.group],
      [true, '*'],
    );
  });

  test('human output, from a fetched robots.txt', async () => {
    const result = await runCli(['agents', `${server.origin}/`]);
    assert.match(
      result.stdout,
      /^blocked\s+GPTBot\s+OpenAI\s+ai-training\s+line 6, its own group$/m,
    );
    assert.match(
      result.stdout,
      /^allowed\s+Googlebot\s+Google\s+search\s+no-matching-rule, the \* group$/m,
    );
  });
});
