import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lint, parse } from '../../src/core/index.ts';
import type { DiagnosticCode } from '../../src/core/lint/types.ts';

/** [code, line] pairs of a report, in order. */
/** The first diagnostic's message. */
function codesAndMessages(body: string): string {
  return lint(body).diagnostics[0]?.message ?? '';
}

function codes(body: string | Uint8Array): [DiagnosticCode, number][] {
  return lint(body).diagnostics.map((d) => [d.code, d.line]);
}

describe('lint', () => {
  test('a clean file has no diagnostics', () => {
    const report = lint(
      'User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nSitemap: https://example.com/sitemap.xml\n',
    );
    assert.deepEqual(
      [report.diagnostics, report.errors, report.warnings, report.infos],
      [[], 0, 0, 0],
    );
  });

  test('what Google accepts with a shrug: typos, key suffixes, a missing colon', () => {
    assert.deepEqual(
      codes('User-agent: *\nDisalow: /a\nDisallowed: /b\nAllow /c\nuseragent: x\n'),
      [
        ['typo', 2],
        ['key-suffix', 3],
        ['missing-colon', 4],
        ['typo', 5],
        // The last group (useragent: x) has no rules either:
        ['group-without-rules', 5],
      ],
    );
  });

  test('lines Google ignores or never uses, each with its own code', () => {
    assert.deepEqual(
      codes(
        'Disallow: /early\nUser-agent: *\nCrawl-delay: 5\nHost: example.com\nNoindex: /x\nUnicorn: yes\nno colon here at all\n',
      ),
      [
        ['rule-outside-group', 1],
        // The only group has no allow or disallow line:
        ['group-without-rules', 2],
        ['ignored-by-google', 3],
        ['ignored-by-google', 4],
        ['unsupported-directive', 5],
        ['unknown-key', 6],
        ['unparsable-line', 7],
      ],
    );
  });

  test('diagnostics carry severity, line and column', () => {
    const [d] = lint('User-agent: *\nDisallow:   private\n').diagnostics;
    assert.deepEqual(
      { code: d!.code, severity: d!.severity, line: d!.line, column: d!.column },
      {
        code: 'path-not-absolute',
        severity: 'warning',
        line: 2,
        column: 13,
      },
    );
  });

  test('rules that can never decide: shadowed by a longer or tie-winning rule, or repeated', () => {
    const report = lint(
      'User-agent: *\nDisallow: /fish\nAllow: /fish*\nDisallow: /x\nAllow: /x\nDisallow: /y\nDisallow: /y\nAllow: /z/\nDisallow: /z/deeper\n',
    );
    const inert = report.diagnostics.filter(
      (d) => d.code === 'shadowed-rule' || d.code === 'duplicate-rule',
    );
    assert.deepEqual(
      inert.map((d) => [d.code, d.line, d.related]),
      [
        ['shadowed-rule', 2, [3]],
        ['shadowed-rule', 4, [5]],
        ['duplicate-rule', 7, [6]],
      ],
    );
  });

  test('groups merged across the file are checked together', () => {
    assert.deepEqual(
      codes(
        'User-agent: a\nDisallow: /p\n\nUser-agent: b\nAllow: /q\n\nUser-agent: a\nAllow: /p\n',
      ).filter(([c]) => c === 'shadowed-rule'),
      [['shadowed-rule', 2]],
    );
  });

  test('user-agent problems, merged agents, a last group without rules', () => {
    assert.deepEqual(
      codes(
        'User-agent:\nUser-agent: Googlebot/2.1\nDisallow: /a\nUser-agent: a\n\nUser-agent: b\n',
      ),
      [
        ['empty-user-agent', 1],
        ['user-agent-token', 2],
        ['group-without-rules', 4],
        ['merged-user-agents', 6],
      ],
    );
    // A digit ends the name: the group is for crawlers named "AI", never "AI2Bot".
    assert.deepEqual(codes('User-agent: AI2Bot\nDisallow: /\n'), [['user-agent-unmatchable', 1]]);
  });

  test('sitemaps must be absolute; $ in the middle is literal', () => {
    assert.deepEqual(
      codes(
        'Sitemap: /sitemap.xml\nSitemap: https://example.com/s.xml\nUser-agent: *\nDisallow: /a$b\n',
      ),
      [
        ['relative-sitemap', 1],
        ['dollar-not-at-end', 4],
      ],
    );
  });

  test('heads-ups: the whole site blocked, CSS and JavaScript blocked, a space in a path, an empty file', () => {
    assert.deepEqual(codes('User-agent: *\nDisallow: /\n'), [['disallow-all', 2]]);
    // A crawler's own group blocking everything is a choice, not a slip (GPTBot).
    assert.deepEqual(codes('User-agent: GPTBot\nDisallow: /\n'), []);
    assert.deepEqual(
      codes(
        'User-agent: Googlebot\nDisallow: /*.css$\nDisallow: /assets/app.js\nDisallow: /json/\n',
      ),
      [
        ['blocked-resources', 2],
        ['blocked-resources', 3],
      ],
    );
    assert.deepEqual(codes('User-agent: Bingbot\nDisallow: /*.css$\n'), []);
    const spaced = lint('User-agent: *\nDisallow: /my page/\n').diagnostics;
    assert.deepEqual(
      spaced.map((d) => [d.code, d.line, d.column]),
      [['space-in-path', 2, 14]],
    );
    assert.match(spaced[0]!.message, /%20/);
    for (const empty of ['', '\n\n', '# nothing here yet\n']) {
      assert.deepEqual(codes(empty), [['empty-file', 1]], JSON.stringify(empty));
    }
    // One-line pages are pages too (a block page without html or body tags); a robots.txt
    // that opens with a comment in angle brackets is still a robots.txt.
    for (const page of ['<h1>Access denied</h1><p>Blocked</p>', '<div>Blocked</div>']) {
      assert.deepEqual(codes(page), [['html-content', 1]], page);
    }
    assert.ok(
      !codes('<!-- ours -->\nUser-agent: *\nDisallow: /x\n').some(([c]) => c === 'html-content'),
    );
    // A page served as robots.txt has its own error, not this note.
    assert.ok(!codes('<html><body>Blocked</body></html>').some(([c]) => c === 'empty-file'));
  });

  test('a long value is quoted cut, with its length, not whole', () => {
    const long = 'x'.repeat(400_000);
    const [d] = lint(`User-agent: *\nDisallow: ${long}\n`).diagnostics;
    assert.equal(d?.code, 'path-not-absolute');
    assert.ok(d!.message.length < 300, `${d!.message.length} characters`);
    // The value as Google reads it: its line is cut at 16,663 bytes.
    assert.match(d!.message, /^"x{100}…" \(16,653 bytes\) does not start with/);
    // Short values are quoted whole, as before.
    assert.match(codesAndMessages('User-agent: *\nDisallow: abc\n'), /^"abc" does not start/);
  });

  test('file-level problems: BOM, HTML, invalid UTF-8, NUL, long lines', () => {
    const bom = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode('User-agent: *\nDisallow: /x\n'),
    ]);
    assert.deepEqual(codes(bom), [['bom', 1]]);
    assert.ok(
      codes('<!DOCTYPE html>\n<html><head><title>x</title></head></html>\n').some(
        ([c]) => c === 'html-content',
      ),
    );
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode('User-agent: *\nDisallow: /caf'),
      0xe9,
      0x0a,
    ]);
    assert.deepEqual(codes(latin1), [['invalid-utf8', 2]]);
    assert.deepEqual(codes('User-agent: *\nDisallow: /a\0b\n'), [['nul-byte', 2]]);
    assert.deepEqual(codes(`User-agent: *\nDisallow: /${'a'.repeat(17_000)}\n`), [
      ['line-too-long', 2],
    ]);
  });

  test('a file that is not a robots.txt is one error, first, not a warning per line', () => {
    const text = 'User-agent: *\r\nDisallow: /cart\r\nDisallow: /checkout\r\n'.repeat(5);
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]);
    const report = lint(utf16);
    assert.deepEqual(
      report.diagnostics.map((d) => d.code),
      ['utf-16'],
    );
    assert.equal(report.errors, 1);
    assert.match(
      report.diagnostics[0]!.message,
      /UTF-16.*no rule.*\d+ line\(s\) of it are not robots\.txt lines/,
    );
    const withoutBom = lint(new Uint8Array(Buffer.from(text, 'utf16le')));
    assert.deepEqual(
      withoutBom.diagnostics.map((d) => d.code),
      ['utf-16'],
    );
    const binary = new Uint8Array(2048).map((_, i) => (i * 7) % 32);
    assert.deepEqual(
      lint(binary).diagnostics.map((d) => d.code),
      ['binary-content'],
    );
    const html = `<!DOCTYPE html>\n<html><head><title>x</title></head>\n${'<p>a: b</p>\n'.repeat(50)}</html>\n`;
    const page = lint(html).diagnostics;
    assert.equal(page[0]!.code, 'html-content', 'the file-level error comes first');
    assert.ok(!page.some((d) => d.code === 'unknown-key' || d.code === 'unparsable-line'));
  });

  test('a line the 500 KiB limit cuts: said, with what Google reads of it', () => {
    const head = 'User-agent: *\nDisallow: /a\n' + '#'.repeat(511_955) + '\n';
    const body = head + 'Disallow: /html/Example-page\nDisallow: /z\n';
    const report = lint(body);
    const cut = report.diagnostics.find((d) => d.code === 'line-cut-by-limit')!;
    assert.equal(cut.line, 4);
    assert.match(cut.message, /Google reads it as "Disallow: \/html\/E" and ignores the rest/);
    const past = report.diagnostics.find((d) => d.code === 'content-past-limit')!;
    assert.deepEqual(past.related, [5], 'the cut line is read in part, not dropped');
    assert.equal(
      parse(body).explain('https://h/html/Else', 'x').line,
      4,
      'check applies the cut value',
    );
    assert.equal(parse(body).cutLine, 4, 'and the parse says the line is cut');
    assert.equal(parse(new TextEncoder().encode(body)).cutLine, 4, 'from bytes too');
    assert.equal(parse(head + 'Disallow: /b\n').cutLine, undefined, 'a file within the limit');
    // The limit right after a line end cuts no line: lint and the parse agree.
    const start = 'User-agent: *\nDisallow: /a\n';
    const between = start + '#'.repeat(512_000 - start.length - 1) + '\nDisallow: /b\n';
    assert.ok(!lint(between).diagnostics.some((d) => d.code === 'line-cut-by-limit'));
    assert.equal(parse(between).cutLine, undefined);
  });

  test('AI-usage lines: malformed Content-Usage statements and Content-Signal entries', () => {
    const body =
      'User-agent: *\nContent-Usage: /a/ Train-AI=n\nContent-Usage: train-ai=maybe, search=y\n' +
      'Content-Usage: /b/ train-ai=n, search=y\nContent-Signal: search=yes, ai-train=nope, use=reference\nAllow: /\n';
    const found = lint(body).diagnostics.filter((d) => d.code !== 'ignored-by-google');
    assert.deepEqual(
      found.map((d) => [d.code, d.line]),
      [
        ['content-usage-invalid', 2],
        ['content-usage-invalid', 3],
        ['content-signal-invalid', 5],
      ],
    );
    assert.match(found[0]!.message, /keys are lower case/);
    assert.match(found[2]!.message, /"ai-train=nope"/);
  });

  test('a Content-Signal before any user-agent says who reads it where; License and LLMs lines are known', () => {
    const body =
      'Content-Signal: ai-train=no\nLicense: https://example.com/license.xml\nLLMs: https://example.com/llms.txt\n\n' +
      'User-agent: *\nContent-Signal: search=yes\nAllow: /\nUnheard-of: x\n';
    assert.deepEqual(codes(body), [
      ['content-signal-file-level', 1],
      ['ignored-by-google', 2],
      ['ignored-by-google', 3],
      ['ignored-by-google', 6],
      ['unknown-key', 8],
    ]);
    const [fileLevel, license, llms] = lint(body).diagnostics;
    assert.match(
      fileLevel!.message,
      /whole file.*Cloudflare reads Content-Signal only inside a group/,
    );
    assert.match(license!.message, /licence terms \(RSL 1\.0\)/);
    assert.match(llms!.message, /llms\.txt/);
  });

  test('Content-Usage under a disallowed path, and groups a first-match parser reads differently', () => {
    const body =
      'User-agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: /never/x/ train-ai=y\nContent-Usage: /ok/ train-ai=y\n\n' +
      'User-agent: ExampleBot\nAllow: /\n\nUser-agent: *\nDisallow: /z\n';
    const found = lint(body).diagnostics.filter((d) => d.code !== 'ignored-by-google');
    assert.deepEqual(
      found.map((d) => [d.code, d.line, d.related]),
      [
        ['content-usage-unreachable', 4, [3]],
        ['split-group', 10, [1]],
      ],
    );
    // An allow that can re-allow URLs under the path: no report.
    const reallowed = lint(
      'User-agent: *\nDisallow: /never/\nAllow: /never/x/open\nContent-Usage: /never/x/ train-ai=y\n',
    );
    assert.ok(!reallowed.diagnostics.some((d) => d.code === 'content-usage-unreachable'));
  });

  test('a line of stars is linted in linear time (no backtracking regex)', () => {
    // The line is cut at 16,663 bytes, all stars: the shadowing check strips the trailing
    // stars (a linear loop) and finds that /a is never decided.
    const report = lint(`User-agent: *\nDisallow: /${'*'.repeat(200_000)}x\nAllow: /a\n`);
    assert.deepEqual(
      report.diagnostics.map((d) => d.code),
      ['line-too-long', 'shadowed-rule'],
    );
  });

  test('content past 500 KiB: reported with the rules it drops', () => {
    const head = 'User-agent: *\nDisallow: /a\n';
    const body = head + '#'.repeat(512_000) + '\nDisallow: /b\nUser-agent: x\nDisallow: /c\n';
    const past = lint(body).diagnostics.find((d) => d.code === 'content-past-limit')!;
    assert.equal(past.severity, 'error');
    assert.deepEqual(past.related, [4, 5, 6]);
    assert.match(past.message, /3 line\(s\) of rules and user-agents, lines 4–6/);
  });

  test('lints every corpus file without throwing', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { SHARED } = await import('../helpers/shared.ts');
    const dir = join(SHARED, 'corpus/robots');
    let diagnostics = 0;
    for (const file of readdirSync(dir))
      diagnostics += lint(readFileSync(join(dir, file))).diagnostics.length;
    assert.ok(diagnostics > 1000, `${diagnostics} diagnostics`);
  });
});
