/**
 * `repkit batch --format csv`: a header and a row per input line, as a CSV reader parses it
 * back (RFC 4180 quoting), no cell a spreadsheet would run as a formula; and batch answers
 * for Google's special-case crawlers as check does.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

/** A small RFC 4180 reader, to read the output back as a spreadsheet would. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endCell();
    else if (c === '\n') {
      endCell();
      rows.push(row);
      row = [];
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}

test('--format csv: a header, a row per line in input order, quoted and defused', async () => {
  const run = await runCli(
    ['batch', '--agent', 'Bingbot', '--robots', 'examples/robots.txt', '--format', 'csv'],
    {
      stdin:
        'https://example.com/private/a\n/drafts/x\nnot a url\n/=cmd,"x"\n=HYPERLINK("http://evil")\n',
    },
  );
  assert.equal(run.code, 2, 'two lines are not URLs');
  const [header, ...rows] = parseCsv(run.stdout);
  assert.deepEqual(header, [
    'url',
    'allowed',
    'line',
    'reason',
    'rule',
    'requestUrl',
    'agent',
    'robotsUrl',
    'status',
    'source',
    'error',
    'errorCode',
  ]);
  assert.equal(rows.length, 5);
  assert.deepEqual(rows[1]!.slice(0, 5), [
    '/drafts/x',
    'false',
    '11',
    'disallowed-by-rule',
    'Disallow: /drafts/',
  ]);
  assert.deepEqual([rows[2]![0], rows[2]![10]], ['not a url', 'stdin line 3: not a URL or a path']);
  // A cell that would start a formula starts with ' instead; commas and quotes survive.
  assert.equal(rows[3]![0], '/=cmd,"x"');
  assert.equal(rows[4]![0], `'=HYPERLINK("http://evil")`);
  for (const row of rows) for (const cell of row) assert.doesNotMatch(cell, /^[=+\-@]/, cell);
  const json = await runCli(['batch', '--agent', 'Bingbot', '--robots', 'examples/robots.txt'], {
    stdin: '/drafts/x\n',
  });
  const record = JSON.parse(json.stdout) as { allowed: boolean; line: number };
  assert.deepEqual([record.allowed, record.line], [false, 11], 'the same verdict as JSON');
});

test('--format csv: a robots.txt that could not be fetched says why by code, as --json does', async () => {
  // Port 1 refuses the connection: no robots.txt is read, so the URL is deferred.
  const run = await runCli(['batch', '--agent', 'Bot', '--format', 'csv'], {
    stdin: 'http://127.0.0.1:1/x\n',
  });
  const [header, row] = parseCsv(run.stdout);
  const cell = (name: string) => row![header!.indexOf(name)];
  assert.deepEqual(
    [cell('allowed'), cell('reason'), cell('status'), cell('errorCode')],
    ['false', 'robots-txt-unreachable', '0', 'ECONNREFUSED'],
  );
  assert.match(cell('error')!, /ECONNREFUSED/);
});

test('batch answers for AdsBot-Google under only a * group as check does', async () => {
  const file = join(tmpdir(), `repkit-batch-ads-${process.pid}.txt`);
  writeFileSync(file, 'User-agent: *\nDisallow: /\n');
  const run = await runCli(['batch', '--agent', 'AdsBot-Google', '--robots', file], {
    stdin: '/x\n',
  });
  const record = JSON.parse(run.stdout) as { allowed: boolean; reason: string };
  assert.deepEqual([record.allowed, record.reason], [true, 'ignores-global-group']);
  assert.equal(run.code, 0);
});
