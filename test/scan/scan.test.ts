/**
 * `repkit scan` over WARC files written by warcio from the corpus, as Common Crawl lays out
 * its robots.txt subset (gzip'd members: 200s, a 404, a 503, a redirect, a wall, an HTML
 * page, a UTF-16 file, an oversized body, a truncated file), a directory, and a second run
 * that skips what the first finished; the Parquet files read back by DuckDB.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ServerResponse } from 'node:http';
import { isInvalidOptionError, RobotsClient } from '../../src/fetch/index.ts';
import { isInvalidInputError } from '../../src/core/index.ts';
import {
  inputsOf,
  makeDirectories,
  ScanDatabase,
  scan,
  sitesInputs,
  type ScanProgress,
} from '../../src/scan/index.ts';
import { httpServer } from '../helpers/servers.ts';
import { ROOT, SHARED } from '../helpers/shared.ts';
import { corpusRecords, warcRecord } from '../helpers/warc.ts';
import { duckRows } from '../helpers/duckdb.ts';

const REPORTS = join(ROOT, 'reports');

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'repkit-scan-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record = warcRecord;

test('WARC input: each response record a capture, every status class, Parquet read back by DuckDB', async () => {
  const corpus = join(SHARED, 'corpus/robots');
  const names = (await readdir(corpus)).sort().slice(0, 20);
  const records = await Promise.all(
    names.map(async (name) =>
      record(name.replace(/\.txt$/, ''), '200 OK', await readFile(join(corpus, name))),
    ),
  );
  records.push(
    await record('gone.example', '404 Not Found', ''),
    await record('down.example', '503 Service Unavailable', ''),
    await record('moved.example', '301 Moved Permanently', '', {
      Location: 'https://www.moved.example/robots.txt',
    }),
    await record('walled.example', '403 Forbidden', '', { 'cf-mitigated': 'challenge' }),
    await record('shop.example', '200 OK', '<!DOCTYPE html><html><body>Shop</body></html>', {
      'Content-Type': 'text/html',
    }),
    await record('wide.example', '200 OK', new Uint8Array([0xff, 0xfe, 0x55, 0, 0x73, 0])),
    await record(
      'huge.example',
      '200 OK',
      `User-agent: GPTBot\nDisallow: /\n${'#'.repeat(600_000)}\n`,
    ),
  );
  const warc = join(dir, 'crawl.warc.gz');
  await writeFile(warc, Buffer.concat(records.map((r) => Buffer.from(r))));
  const out = join(dir, 'out');
  const summary = await scan([warc], { out, agents: ['GPTBot', 'Googlebot'] });
  assert.deepEqual([summary.captures, summary.errors], [27, []]);
  const captures = await duckRows(
    `SELECT host, status, status_class, kind, cut FROM read_parquet('${out}/captures.parquet') ORDER BY host`,
  );
  const of = (host: string) => captures.find((c) => c['host'] === host)!;
  assert.deepEqual(of('gone.example'), {
    host: 'gone.example',
    status: 404,
    status_class: 'no-file',
    kind: 'empty',
    cut: false,
  });
  assert.equal(of('down.example')['status_class'], 'unreachable');
  assert.equal(of('moved.example')['status_class'], 'redirect');
  assert.equal(of('walled.example')['status_class'], 'challenge');
  assert.deepEqual(
    [of('shop.example')['status_class'], of('shop.example')['kind']],
    ['html', 'html'],
  );
  assert.equal(of('wide.example')['kind'], 'utf-16');
  assert.equal(of('huge.example')['cut'], true);
  const agents = await duckRows(
    `SELECT host, agent, named, verdict_class FROM read_parquet('${out}/agents.parquet') WHERE host = 'huge.example' ORDER BY agent`,
  );
  assert.deepEqual(agents, [
    { host: 'huge.example', agent: 'GPTBot', named: true, verdict_class: 'all' },
    { host: 'huge.example', agent: 'Googlebot', named: false, verdict_class: 'none' },
  ]);
  // Every ready report runs on it.
  const database = await ScanDatabase.open(out);
  try {
    for (const name of await readdir(REPORTS)) {
      const result = await database.query(await readFile(join(REPORTS, name), 'utf8'));
      assert.ok(result.length > 0, name);
    }
    const [status] = await database.query(await readFile(join(REPORTS, 'status.sql'), 'utf8'));
    const files = captures.filter((c) => c['status_class'] === 'file').length;
    assert.deepEqual(status, {
      crawl: '2026-10',
      status_class: 'file',
      captures: files,
      percent: Math.round((10_000 * files) / 27) / 100,
    });
  } finally {
    database.close();
  }
  // Each capture's date is the record's.
  const dated = await duckRows(
    `SELECT DISTINCT captured_at FROM read_parquet('${out}/captures.parquet')`,
  );
  assert.deepEqual(dated, [{ captured_at: '2026-10-05T12:00:00Z' }]);
});

test('the reports count a site once per input: captured twice in one WARC file, it is one site', async () => {
  const blocked = 'User-agent: GPTBot\nDisallow: /\nContent-Usage: train-ai=n\n';
  const records = [
    await record('twice.example', '200 OK', blocked),
    await record('other.example', '200 OK', 'User-agent: *\nDisallow: /private/\n'),
    await record('twice.example', '200 OK', blocked),
  ];
  const warc = join(dir, 'twice.warc.gz');
  await writeFile(warc, Buffer.concat(records.map((r) => Buffer.from(r))));
  const out = join(dir, 'twice-out');
  const summary = await scan([warc], { out, agents: ['GPTBot'] });
  // Every capture is kept: the reports, not the rows, count sites.
  assert.equal(summary.captures, 3);
  const database = await ScanDatabase.open(out);
  try {
    const report = async (name: string) =>
      database.query(await readFile(join(REPORTS, `${name}.sql`), 'utf8'));
    assert.deepEqual(await report('ai-blocking'), [
      { agent: 'GPTBot', purpose: 'ai-training', sites: 2, fully_percent: 50, partly_percent: 50 },
    ]);
    assert.deepEqual(await report('named-vs-disallowed'), [
      {
        agent: 'GPTBot',
        named: 1,
        fully_disallowed: 1,
        named_but_allowed: 0,
        disallowed_unnamed: 0,
      },
    ]);
    const [use] = await report('ai-use');
    assert.deepEqual([use!['files'], use!['content_usage_percent']], [2, 50]);
  } finally {
    database.close();
  }
});

test('redirects resolved within the records: hops before and after, across hosts, five at most, loops, none recorded', async () => {
  const to = (host: string) => ({ Location: `https://${host}/robots.txt` });
  const chain = await Promise.all(
    Array.from({ length: 7 }, (_, i) =>
      record(`e${i}.example`, '301 Moved', '', to(`e${i + 1}.example`)),
    ),
  );
  const records = [
    await record('a.example', '301 Moved Permanently', '', to('www.a.example')),
    await record('www.a.example', '200 OK', 'User-agent: GPTBot\nDisallow: /\n'),
    // The second hop was recorded before the first; the third after.
    await record('http://b2.example/robots.txt', '302 Found', '', to('b3.example')),
    await record('b.example', '301 Moved', '', { Location: 'http://b2.example/robots.txt' }),
    await record('b3.example', '404 Not Found', ''),
    await record('c.example', '301 Moved', '', to('d.example')),
    await record('d.example', '301 Moved', '', to('c.example')),
    ...chain,
    await record('e7.example', '200 OK', 'User-agent: *\nDisallow: /\n'),
    await record('f.example', '301 Moved', ''),
    await record('g.example', '301 Moved', '', to('h.example')),
  ];
  const warc = join(dir, 'redirects.warc.gz');
  await writeFile(warc, Buffer.concat(records.map((r) => Buffer.from(r))));
  const out = join(dir, 'redirects');
  const summary = await scan([warc], { out, agents: ['GPTBot'] });
  assert.deepEqual([summary.captures, summary.errors], [17, []]);
  const found =
    await duckRows(`SELECT c.host, c.status, c.status_class, c.redirect_hops, c.redirect_url, a.verdict_class
     FROM read_parquet('${out}/captures.parquet') c JOIN read_parquet('${out}/agents.parquet') a USING (host)`);
  const of = (host: string) => {
    const row = found.find((r) => r['host'] === host)!;
    const url = row['redirect_url'] as string | null;
    return [
      row['status'],
      row['status_class'],
      row['redirect_hops'],
      url && new URL(url).host,
      row['verdict_class'],
    ];
  };
  assert.deepEqual(of('a.example'), [200, 'file', 1, 'www.a.example', 'all']);
  assert.deepEqual(of('www.a.example'), [200, 'file', 0, null, 'all']);
  assert.deepEqual(of('b.example'), [404, 'no-file', 2, 'b3.example', 'none']);
  assert.deepEqual(of('b2.example'), [404, 'no-file', 1, 'b3.example', 'none']);
  // A loop, and more than five hops: no robots.txt, as a crawler gives up on them.
  assert.deepEqual(of('c.example'), [301, 'no-file', 2, 'c.example', 'none']);
  assert.deepEqual(of('e0.example'), [301, 'no-file', 6, 'e6.example', 'none']);
  assert.deepEqual(of('e1.example'), [301, 'no-file', 6, 'e7.example', 'none']);
  assert.deepEqual(of('e2.example'), [200, 'file', 5, 'e7.example', 'all']);
  // No Location: nowhere to go; a target the records do not hold: unknown.
  assert.deepEqual(of('f.example'), [301, 'no-file', 0, null, 'none']);
  assert.deepEqual(of('g.example'), [301, 'redirect', 1, 'h.example', 'unknown']);
});

test('worker threads and the calling thread give the same rows; progress says how far, with an ETA', async () => {
  const paths = [];
  for (let i = 0; i < 3; i++) {
    const path = join(dir, `part-${i}.warc.gz`);
    await writeFile(path, Buffer.concat(await corpusRecords(300, i * 300)));
    paths.push(path);
  }
  const table = async (out: string, name: string) =>
    duckRows(`SELECT * FROM read_parquet('${out}/${name}.parquet') ORDER BY ALL`);
  const progress: ScanProgress[] = [];
  const threads = join(dir, 'threads');
  const summary = await scan(paths, {
    out: threads,
    workers: 2,
    agents: ['GPTBot', 'Googlebot', 'CCBot'],
    onProgress: (p) => progress.push(p),
  });
  const inline = join(dir, 'inline');
  await scan(paths, { out: inline, workers: 0, agents: ['GPTBot', 'Googlebot', 'CCBot'] });
  assert.equal(summary.captures, 900);
  for (const name of ['captures', 'agents']) {
    const [a, b] = [await table(threads, name), await table(inline, name)];
    assert.equal(a.length, name === 'captures' ? 900 : 2_700);
    assert.deepEqual(a, b, name);
  }
  // Told after each input at least; the last says all done, and an ETA was known on the way.
  const last = progress.at(-1)!;
  assert.deepEqual([last.inputsDone, last.inputs, last.captures, last.etaMs], [3, 3, 900, 0]);
  assert.ok(progress.filter((p) => p.inputsDone < 3).some((p) => p.etaMs! > 0));
});

test('a truncated WARC keeps the captures before the cut and says so; a second run skips finished inputs', async () => {
  const whole = Buffer.concat([
    Buffer.from(await record('a.example', '200 OK', 'User-agent: *\nDisallow: /a\n')),
    Buffer.from(await record('b.example', '200 OK', 'User-agent: *\nDisallow: /b\n')),
  ]);
  const cut = join(dir, 'cut.warc.gz');
  await writeFile(cut, whole.subarray(0, whole.length - 40));
  const files = join(dir, 'files');
  await rm(files, { recursive: true, force: true });
  await import('node:fs/promises').then((fs) => fs.mkdir(files));
  await writeFile(join(files, 'c.example.txt'), 'User-agent: *\nDisallow: /\n');
  const out = join(dir, 'resume');
  const first = await scan([cut, files], { out, agents: ['GPTBot'] });
  assert.equal(first.errors.length, 1);
  assert.match(first.errors[0]!.error, /truncated/);
  assert.equal(first.errors[0]!.captures, 1);
  assert.equal(first.captures, 2);
  const again = await scan([cut, files], { out, agents: ['GPTBot'] });
  assert.deepEqual([again.captures, again.skipped], [0, 2]);
  const hosts = await duckRows(
    `SELECT host FROM read_parquet('${out}/captures.parquet') ORDER BY host`,
  );
  assert.deepEqual(hosts, [{ host: 'a.example' }, { host: 'c.example' }]);
});

test('a directory: entries that are no file passed over, an unreadable one named after the rest are read, a huge one read to 1 MiB', async () => {
  const { mkdir, symlink } = await import('node:fs/promises');
  const files = join(dir, 'mixed');
  await rm(files, { recursive: true, force: true });
  await mkdir(join(files, 'sub'), { recursive: true });
  const small = 'User-agent: *\nDisallow: /a\n';
  await writeFile(join(files, 'a.example.txt'), small);
  // A dangling link and a link loop sort between the two files: neither ends the reading.
  await symlink(join(files, 'nowhere'), join(files, 'b.example.txt'));
  await symlink(join(files, 'c.example.txt'), join(files, 'c.example.txt'));
  const huge = 'User-agent: *\nDisallow: /e\n' + '#'.repeat(3 * 1024 * 1024) + '\n';
  await writeFile(join(files, 'e.example.txt'), huge);
  const out = join(dir, 'mixed-out');
  // Neither the sizing of the directory nor its reading throws (a dangling link was an
  // internal error at the start, and ended the directory's reading there).
  const summary = await scan([files], { out, agents: ['GPTBot'], workers: 0 });
  assert.equal(summary.captures, 2);
  assert.equal(summary.errors.length, 1);
  assert.equal(summary.errors[0]!.captures, 2);
  assert.match(
    summary.errors[0]!.error,
    /^could not read 1 of its files \(the rest were read\): c\.example\.txt \(ELOOP/,
  );
  const rows = await duckRows(
    `SELECT host, bytes FROM read_parquet('${out}/captures.parquet') ORDER BY host`,
  );
  assert.deepEqual(rows, [
    { host: 'a.example', bytes: small.length },
    { host: 'e.example', bytes: 1024 * 1024 },
  ]);
});

test("each file read once however it is reached; a directory's WARC files read as WARC files", async () => {
  const { mkdir } = await import('node:fs/promises');
  const files = join(dir, 'reached-twice');
  await rm(files, { recursive: true, force: true });
  await mkdir(files);
  await writeFile(join(files, 'a.example.txt'), 'User-agent: *\nDisallow: /a\n');
  await writeFile(join(files, 'b.example.txt'), 'User-agent: *\nDisallow: /b\n');
  const warc = join(files, 'crawl.warc.gz');
  await writeFile(warc, await record('c.example', '200 OK', 'User-agent: *\nDisallow: /c\n'));
  // The directory three ways, one of its files and its WARC file: each read once (they were
  // read as often as named, and the WARC file as one robots.txt capture of its gzip bytes).
  const paths = [files, `${files}/`, join(files, '.'), join(files, 'a.example.txt'), warc];
  assert.deepEqual(
    (await inputsOf(paths)).map((input) => [input.kind, input.path]),
    [
      ['directory', files],
      ['warc', warc],
    ],
  );
  const out = join(dir, 'reached-twice-out');
  const summary = await scan(paths, { out, agents: ['GPTBot'], workers: 0 });
  assert.deepEqual([summary.inputs, summary.captures, summary.errors], [2, 3, []]);
  const hosts = await duckRows(
    `SELECT host FROM read_parquet('${out}/captures.parquet') ORDER BY host`,
  );
  assert.deepEqual(hosts, [{ host: 'a.example' }, { host: 'b.example' }, { host: 'c.example' }]);
  // A folder of WARC files only is their container; an empty folder is still an input.
  const warcs = join(dir, 'warcs-only');
  const empty = join(dir, 'empty-folder');
  await rm(warcs, { recursive: true, force: true });
  await rm(empty, { recursive: true, force: true });
  await mkdir(warcs);
  await mkdir(empty);
  await writeFile(join(warcs, 'b.warc'), await record('d.example', '200 OK', ''));
  await writeFile(join(warcs, 'a.warc.gz'), await record('e.example', '200 OK', ''));
  assert.deepEqual(
    (await inputsOf([warcs, empty])).map((input) => [input.kind, input.path]),
    [
      ['warc', join(warcs, 'a.warc.gz')],
      ['warc', join(warcs, 'b.warc')],
      ['directory', empty],
    ],
  );
  // A list of sites given twice is one input.
  const list = join(dir, 'sites-twice.txt');
  await writeFile(list, 'example.com\n');
  assert.equal((await sitesInputs([list, join(dir, '.', 'sites-twice.txt')])).length, 1);
});

test('a list of sites: each robots.txt fetched through the client, walls read as Google reads their status', async () => {
  const servers = await Promise.all(
    [
      (res: ServerResponse) => res.writeHead(200).end('User-agent: GPTBot\nDisallow: /\n'),
      (res: ServerResponse) => res.writeHead(404).end(),
      (res: ServerResponse) => res.writeHead(503).end(),
      (res: ServerResponse) =>
        res
          .writeHead(403, { 'cf-mitigated': 'challenge', 'content-type': 'text/html' })
          .end('<html></html>'),
    ].map((answer) => httpServer((_req, res) => answer(res))),
  );
  const client = new RobotsClient({ userAgent: 'ScanBot/1.0', allowAddress: () => true });
  try {
    const list = join(dir, 'sites.txt');
    await writeFile(
      list,
      `# the sites\n${servers.map((s) => s.origin).join('\n')}\nnot a site at all\n\nftp://files.example/\n`,
    );
    const out = join(dir, 'sites-out');
    const summary = await scan([], { out, agents: ['GPTBot'], client, sites: [list] });
    // Lines that name no site the client asks about are named after the rest are fetched
    // (they were passed over without a word).
    assert.equal(summary.captures, 4);
    assert.deepEqual(
      summary.errors.map(({ captures, error }) => [captures, error.slice(0, 109)]),
      [
        [
          4,
          'could not read 2 of its lines as sites (the rest were read): line 6 "not a site at all" (not a site), line 8 ',
        ],
      ],
    );
    assert.match(summary.errors[0]!.error, /line 8 "ftp:\/\/files\.example\/" \(.+\)$/);
    const rows_ = await duckRows(
      `SELECT c.host, c.status, c.status_class, a.verdict_class FROM read_parquet('${out}/captures.parquet') c JOIN read_parquet('${out}/agents.parquet') a USING (host)`,
    );
    const byHost = new Map(
      rows_.map((r) => [r['host'], [r['status'], r['status_class'], r['verdict_class']]]),
    );
    const host = (i: number) => new URL(servers[i]!.origin).host;
    assert.deepEqual(byHost.get(host(0)), [200, 'file', 'all']);
    assert.deepEqual(byHost.get(host(1)), [404, 'no-file', 'none']);
    assert.deepEqual(byHost.get(host(2)), [503, 'unreachable', 'all']);
    assert.deepEqual(byHost.get(host(3)), [403, 'challenge', 'none']);
    // Each robots.txt was asked for once.
    for (const server of servers) assert.equal(server.requests.length, 1);
  } finally {
    await client.close();
    await Promise.all(servers.map((s) => s.close()));
  }
});

test('inputs, lists of sites and an output it cannot use: typed errors naming them, nothing written', async () => {
  const file = join(dir, 'robots.txt');
  await writeFile(file, 'User-agent: *\nDisallow: /\n');
  const missing = join(dir, 'no-such.warc');
  const out = join(dir, 'refused-out');
  await assert.rejects(scan([missing], { out }), (error: Error) => {
    assert.ok(isInvalidInputError(error));
    assert.equal(error.message, `paths: cannot read ${missing}: no such file or directory`);
    return true;
  });
  const client = new RobotsClient({ userAgent: 'repkit-test' });
  try {
    await assert.rejects(scan([], { out, client, sites: [dir] }), (error: Error) => {
      assert.ok(isInvalidOptionError(error));
      assert.equal(error.message, `sites: ${dir} is a directory, not a list of sites`);
      return true;
    });
  } finally {
    await client.close();
  }
  // None of them made the output directory.
  await assert.rejects(readdir(out), { code: 'ENOENT' });
  // An output that is a file: said before any input is read.
  await assert.rejects(scan([file], { out: file }), (error: Error) => {
    assert.ok(isInvalidOptionError(error));
    assert.equal(error.message, `out: ${file} is a file, not a directory for the scan's database`);
    return true;
  });
});

test(
  'an output where no folder can be made (under /proc) fails at once, where it spun forever',
  {
    skip: existsSync('/proc/self') ? false : 'no procfs here',
  },
  async () => {
    const out = join('/proc', `repkit-scan-${process.pid}`, 'out');
    // Node's recursive mkdir never settled here: the race turns a hang into a failure.
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('scan --out under /proc did not settle')), 30_000);
    });
    try {
      await assert.rejects(Promise.race([scan([], { out }), hung]), (error: Error) => {
        assert.ok(isInvalidOptionError(error), String(error));
        assert.match(error.message, /^out: cannot make \/proc\/repkit-scan-\d+\/out: ENOENT/);
        return true;
      });
    } finally {
      clearTimeout(timer);
    }
    // The helper the CLI's --junit uses too: a level that cannot be made is the system's error.
    await assert.rejects(makeDirectories(out), { code: 'ENOENT' });
    const file = join(dir, 'not-a-folder.txt');
    await writeFile(file, '');
    await assert.rejects(makeDirectories(join(file, 'under')), { code: 'ENOTDIR' });
    await makeDirectories(join(dir, 'made', 'two', 'levels'));
    await makeDirectories(join(dir, 'made', 'two'));
    assert.deepEqual(await readdir(join(dir, 'made', 'two')), ['levels']);
  },
);
