/**
 * Each command's work called directly: `run<Command>` with its options as the command's own
 * parser reads them, an in-memory output, and real files and a real site on loopback. The
 * binary's own tests (commands.test.ts and the rest) cover the wiring; these reach inside it.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import { Command } from 'commander';
import { pc } from '../../src/cli/toolkit.ts';
import type { Output } from '../../src/cli/output.ts';
import { registerAgents, runAgents } from '../../src/cli/commands/agents.ts';
import { registerBatch, runBatch } from '../../src/cli/commands/batch.ts';
import { registerCheck, runCheck } from '../../src/cli/commands/check.ts';
import { registerDiff, runDiff } from '../../src/cli/commands/diff.ts';
import { registerExplain, runExplain } from '../../src/cli/commands/explain.ts';
import { registerFetch, runFetch } from '../../src/cli/commands/fetch.ts';
import { registerKeygen, runKeygen } from '../../src/cli/commands/keygen.ts';
import { registerLint, runLint } from '../../src/cli/commands/lint.ts';
import { registerMcp, runMcp } from '../../src/cli/commands/mcp.ts';
import { registerMeta, runMeta } from '../../src/cli/commands/meta.ts';
import { progressLine, registerScan, runScan } from '../../src/cli/commands/scan.ts';
import { registerServe, runServe } from '../../src/cli/commands/serve.ts';
import { registerSitemaps, runSitemaps } from '../../src/cli/commands/sitemaps.ts';
import { registerTest, runTest } from '../../src/cli/commands/test.ts';
import { registerUsage, runUsage } from '../../src/cli/commands/usage.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

const ROBOTS = 'User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n';
const PAGE = '<html><head><meta name="robots" content="noindex"></head><body>x</body></html>';

let site: TestServer;
let dir: string;
/** Requests for /robots.txt the site has answered. */
let robotsServed = 0;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'repkit-run-'));
  site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      robotsServed++;
      return void res.writeHead(200).end(ROBOTS);
    }
    if (req.url === '/page') {
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    }
    if (req.url === '/sitemap.xml') {
      const urls = ['/page', '/private/x'].map((p) => `<url><loc>${site.origin}${p}</loc></url>`);
      return void res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<urlset>${urls.join('\n')}</urlset>`);
    }
    res.writeHead(404).end();
  });
});
after(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = 0;
});

/** Output kept in memory, without colour. */
function memoryOutput(): Output & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    out: (line) => lines.push(line),
    err: (line) => errors.push(line),
    color: pc.createColors(false),
    errIsTTY: false,
    lines,
    errors,
  };
}

type Register = (program: Command, output: Output) => void;

/** The arguments and options `argv` gives the command `name`, as its own parser reads them. */
function parsed(register: Register, name: string, argv: string[]) {
  const program = new Command('repkit').exitOverride();
  register(program, memoryOutput());
  const command = program.commands.find((c) => c.name() === name)!;
  const { operands, unknown } = command.parseOptions(argv);
  assert.deepEqual(unknown, [], `${name}: every flag is the command's`);
  // The parser's own values, defaults included, exactly as the action would get them.
  return { operands, options: command.opts() as never };
}

/** A command's exit status (process.exitCode), read and reset. */
function exitStatus(): number {
  const code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  process.exitCode = 0;
  return code;
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const json = (output: { lines: string[] }) => output.lines.map((l) => JSON.parse(l) as never);

test('runCheck: one JSON record per URL, the deciding line, exit 1 when one is disallowed', async () => {
  const output = memoryOutput();
  const urls = [`${site.origin}/private/x`, `${site.origin}/open`];
  const { options } = parsed(registerCheck, 'check', ['--json', '--agent', 'ExampleBot']);
  await runCheck(urls, options, output);
  const [closed, open] = json(output) as { allowed: boolean; line: number; url: string }[];
  assert.deepEqual([closed!.url, closed!.allowed, closed!.line], [urls[0], false, 2]);
  assert.deepEqual([open!.allowed, open!.line], [true, 0]);
  assert.equal(exitStatus(), 1);
});

test('runExplain: every rule that matched, and the winner', async () => {
  const output = memoryOutput();
  const { options } = parsed(registerExplain, 'explain', ['--json', '--agent', 'ExampleBot']);
  await runExplain(`${site.origin}/private/x`, options, output);
  type Explained = { allowed: boolean; explanation: { matches: { line: number }[] } };
  const [answer] = json(output) as Explained[];
  assert.equal(answer!.allowed, false);
  assert.deepEqual(
    answer!.explanation.matches.map((m) => m.line),
    [2],
  );
  assert.equal(exitStatus(), 1);
});

test('runUsage and runMeta: the page is fetched where robots.txt allows, and its noindex read', async () => {
  const usage = memoryOutput();
  const asked = parsed(registerUsage, 'usage', ['--json', '--agent', 'ExampleBot']);
  await runUsage(`${site.origin}/page`, asked.options, usage);
  const [answer] = json(usage) as { fetch: { may: boolean }; index: { may: boolean } }[];
  assert.deepEqual([answer!.fetch.may, answer!.index.may], [true, false]);
  exitStatus();

  const meta = memoryOutput();
  const metaAsked = parsed(registerMeta, 'meta', ['--json', '--agent', 'ExampleBot']);
  await runMeta(`${site.origin}/page`, metaAsked.options, meta);
  const [rules] = json(meta) as { fetch: boolean; index: boolean; reasons: string[] }[];
  assert.deepEqual([rules!.fetch, rules!.index], [true, false]);
  assert.match(rules!.reasons[0]!, /noindex/);
  exitStatus();
});

test("runFetch: the site's robots.txt as fetched, its status and its lines", async () => {
  const output = memoryOutput();
  const { options } = parsed(registerFetch, 'fetch', ['--json']);
  await runFetch(`${site.origin}/anything`, options, output);
  const [fetched] = json(output) as { status: number; robotsUrl: string }[];
  assert.deepEqual([fetched!.status, fetched!.robotsUrl], [200, `${site.origin}/robots.txt`]);
  exitStatus();
});

test("runSitemaps: a site's /sitemap.xml, each URL's verdict; --only-allowed and --count", async () => {
  // The site is on loopback: refused, with no connection, unless --allow-private-addresses.
  const refused = memoryOutput();
  const served = robotsServed;
  await runSitemaps(
    `${site.origin}/`,
    parsed(registerSitemaps, 'sitemaps', ['--agent', 'ExampleBot']).options,
    refused,
  );
  assert.equal(exitStatus(), 1);
  assert.deepEqual(refused.lines, []);
  assert.match(refused.errors.at(-1)!, /EREFUSEDADDRESS.*\(--allow-private-addresses reads it\)$/);
  assert.equal(robotsServed, served);
  const output = memoryOutput();
  const { options } = parsed(registerSitemaps, 'sitemaps', [
    '--agent',
    'ExampleBot',
    '--json',
    '--allow-private-addresses',
  ]);
  await runSitemaps(`${site.origin}/`, options, output);
  const entries = json(output) as { url: string; allowed: boolean; line: number }[];
  assert.deepEqual(
    entries.map((e) => [e.url.slice(site.origin.length), e.allowed, e.line]),
    [
      ['/page', true, 1],
      ['/private/x', false, 2],
    ],
  );
  const counted = memoryOutput();
  const only = parsed(registerSitemaps, 'sitemaps', [
    '--agent',
    'ExampleBot',
    '--only-allowed',
    '--count',
    '--allow-private-addresses',
  ]);
  await runSitemaps(`${site.origin}/`, only.options, counted);
  assert.deepEqual(counted.lines, ['1']);
  assert.equal(exitStatus(), 0);
  const missing = memoryOutput();
  await runSitemaps(`${site.origin}/nowhere.xml`, options, missing);
  assert.equal(exitStatus(), 1);
  assert.match(missing.errors.at(-1)!, /nowhere\.xml: HTTP 404/);
});

test('runAgents: GPTBot blocked by its own group, Googlebot allowed', async () => {
  const output = memoryOutput();
  const { options } = parsed(registerAgents, 'agents', ['--json']);
  await runAgents(file('robots.txt', ROBOTS), options, output);
  const records = json(output) as { agent: string[]; allowed: boolean; group: string }[];
  const gpt = records.find((r) => r.agent[0] === 'GPTBot');
  const google = records.find((r) => r.agent[0] === 'Googlebot');
  assert.deepEqual([gpt?.allowed, gpt?.group], [false, 'own']);
  assert.equal(google?.allowed, true);
  exitStatus();
});

test('runDiff: the URLs whose verdict changes, per crawler; exit 1 on a change', async () => {
  const output = memoryOutput();
  const before = file('before.txt', 'User-agent: *\nDisallow: /a/\n');
  const after = file('after.txt', 'User-agent: *\nDisallow: /a/\nDisallow: /b/\n');
  const { options } = parsed(registerDiff, 'diff', ['--json']);
  await runDiff(before, after, options, output);
  const changes = json(output) as { url: string; agent: string[]; after: { allowed: boolean } }[];
  assert.ok(changes.length > 0);
  assert.ok(changes.every((c) => c.url.startsWith('/b') && c.after.allowed === false));
  assert.equal(exitStatus(), 1);
});

test('runLint: a report per file, errors counted', async () => {
  const output = memoryOutput();
  const { options } = parsed(registerLint, 'lint', ['--json']);
  await runLint([file('lint.txt', 'Disallow: /x\nUser-agent: *\nDisalow: /y\n')], options, output);
  const [report] = json(output) as { diagnostics: { code: string }[] }[];
  const codes = report!.diagnostics.map((d) => d.code);
  assert.ok(codes.includes('rule-outside-group'), codes.join());
  exitStatus();
});

test('runTest: a spec met and a spec broken', async () => {
  const robots = file('spec-robots.txt', ROBOTS);
  const spec = file('spec.yaml', 'expect:\n  - agent: ExampleBot\n    disallow: [/private/x]\n');
  const broken = file('broken.yaml', 'expect:\n  - agent: ExampleBot\n    allow: [/private/x]\n');
  const output = memoryOutput();
  const met = parsed(registerTest, 'test', ['--json', '--robots', robots]);
  await runTest([spec], met.options, output);
  assert.equal(exitStatus(), 0);
  await runTest([broken], met.options, output);
  assert.equal(exitStatus(), 1);
  const [passed, failed] = json(output) as { failed: number }[];
  assert.deepEqual([passed!.failed, failed!.failed], [0, 1]);
});

test('runBatch: URLs from the input given, one JSON line each, in order', async () => {
  const output = memoryOutput();
  const robots = file('batch-robots.txt', ROBOTS);
  const { options } = parsed(registerBatch, 'batch', ['--robots', robots, '--agent', 'ExampleBot']);
  const written: string[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(String(chunk));
      done();
    },
  });
  await runBatch(options, output, { input: Readable.from(['/open\n/private/x\n']), stdout });
  const lines = written.join('').trim().split('\n');
  const records = lines.map((l) => JSON.parse(l) as { url: string; allowed: boolean });
  assert.deepEqual(
    records.map((r) => [r.url, r.allowed]),
    [
      ['/open', true],
      ['/private/x', false],
    ],
  );
  assert.equal(exitStatus(), 1);
});

test('runKeygen: a private key and its directory, written where asked', () => {
  const output = memoryOutput();
  const out = join(dir, 'key.jwk');
  const directory = join(dir, 'directory.json');
  const { options } = parsed(registerKeygen, 'keygen', ['--out', out, '--directory', directory]);
  runKeygen(options, output);
  const key = JSON.parse(readFileSync(out, 'utf8')) as { kty: string; d?: string };
  const keys = JSON.parse(readFileSync(directory, 'utf8')) as { keys: { d?: string }[] };
  assert.equal(key.kty, 'OKP');
  assert.ok(key.d, 'the private key');
  assert.equal(keys.keys[0]!.d, undefined, 'the directory holds no private part');
});

/** The URL a serving command said it listens on. */
function servedUrl(output: { errors: string[] }): string {
  const said = output.errors.join('\n');
  const url = /serving (?:MCP )?on (http:\/\/[^\s;]+)/.exec(said)?.[1];
  assert.ok(url, said);
  return url.replace(/\/mcp$/, '');
}

/** A command that serves until told to stop, run until the test says so. */
async function served(
  run: (until: Promise<string>, output: ReturnType<typeof memoryOutput>) => Promise<void>,
  check: (url: string) => Promise<void>,
): Promise<string[]> {
  const output = memoryOutput();
  let stop!: (signal: string) => void;
  const until = new Promise<string>((done) => (stop = done));
  const running = run(until, output);
  try {
    // Serving begins when the command says where; the wait is bounded by the test's timeout.
    for (let i = 0; i < 600 && !output.errors.some((e) => /serving/.test(e)); i++) {
      await Promise.race([running, new Promise((r) => setTimeout(r, 50))]);
    }
    await check(servedUrl(output));
  } finally {
    stop('SIGTERM');
    await running;
  }
  return output.errors;
}

test(
  'runServe: serves until told to stop, then drains and closes',
  { timeout: 60_000 },
  async () => {
    const { options } = parsed(registerServe, 'serve', ['--port', '0', '--host', '127.0.0.1']);
    const said = await served(
      (until, output) => runServe(options, output, until),
      async (url) => {
        const health = await fetch(`${url}/healthz`);
        assert.equal(health.status, 200);
      },
    );
    assert.ok(said.some((line) => /SIGTERM: stopping/.test(line)));
    assert.ok(said.some((line) => /stopped in \d+ ms/.test(line)));
  },
);

test('runMcp --http: the tools served until told to stop', { timeout: 60_000 }, async () => {
  const { options } = parsed(registerMcp, 'mcp', ['--http', '0', '--agent', 'ExampleBot']);
  await served(
    (until, output) => runMcp(options, output, until),
    async (url) => {
      const answer = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      const listed = (await answer.json()) as { result?: { tools: { name: string }[] } };
      assert.ok(
        listed.result?.tools.some((t) => t.name === 'check_url'),
        JSON.stringify(listed),
      );
    },
  );
});

test('runScan: a directory of files into DuckDB and Parquet, then a ready report; a second run skips it', async () => {
  const sites = join(dir, 'sites');
  rmSync(sites, { recursive: true, force: true });
  await import('node:fs/promises').then((fs) => fs.mkdir(sites));
  writeFileSync(join(sites, 'a.example.txt'), 'User-agent: GPTBot\nDisallow: /\n');
  writeFileSync(join(sites, 'b.example.txt'), 'User-agent: *\nDisallow: /private/\n');
  const out = join(dir, 'scan-out');
  const first = memoryOutput();
  const { options } = parsed(registerScan, 'scan', ['--agents', 'GPTBot,Googlebot', '--out', out]);
  await runScan([sites], options, first);
  assert.match(
    first.lines[0]!,
    /^2 captures from 1 inputs; .*captures\.parquet, .*agents\.parquet, .*crawlers\.parquet, .*inputs\.parquet$/,
  );
  assert.equal(exitStatus(), 0);
  const report = memoryOutput();
  const asked = parsed(registerScan, 'scan', ['--out', out, '--report', 'ai-blocking', '--json']);
  await runScan([], asked.options, report);
  assert.deepEqual(json(report), [
    { agent: 'GPTBot', purpose: 'ai-training', sites: 2, fully_percent: 50, partly_percent: 50 },
    { agent: 'Googlebot', purpose: 'search', sites: 2, fully_percent: 0, partly_percent: 50 },
  ]);
  const again = memoryOutput();
  await runScan([sites], options, again);
  assert.match(again.lines[0]!, /^0 captures from 0 inputs \(1 finished before, skipped\)/);
  // A list of sites through the command's own client: each robots.txt fetched once, a site
  // listed twice kept as two captures and counted as one site.
  const list = file('scan-sites.txt', `# one site, twice\n${site.origin}\n${site.origin}/\n`);
  const fetched = memoryOutput();
  const sitesOut = join(dir, 'scan-sites');
  const servedBefore = robotsServed;
  await runScan(
    [],
    parsed(registerScan, 'scan', ['--sites', list, '--agents', 'GPTBot', '--out', sitesOut])
      .options,
    fetched,
  );
  assert.match(fetched.lines[0]!, /^2 captures from 1 inputs; /);
  assert.equal(robotsServed - servedBefore, 1);
  const verdicts = memoryOutput();
  await runScan(
    [],
    parsed(registerScan, 'scan', ['--out', sitesOut, '--report', 'ai-blocking', '--json']).options,
    verdicts,
  );
  assert.deepEqual(json(verdicts), [
    { agent: 'GPTBot', purpose: 'ai-training', sites: 1, fully_percent: 100, partly_percent: 0 },
  ]);
  // The flags the many-machine mode and a list of sites take, as the command parses them.
  const flags = parsed(registerScan, 'scan', [
    ...['--sites', 'a.txt', '--sites', 'b.txt', '--workers', '0'],
    ...['--redis-url', 'redis://10.0.0.5:6379,redis://10.0.0.6:6379', '--claim-after', '2000'],
  ]).options as Record<string, unknown>;
  assert.deepEqual(
    [flags['sites'], flags['workers'], flags['redisUrl'], flags['claimAfter'], flags['scanName']],
    [
      ['a.txt', 'b.txt'],
      0,
      ['redis://10.0.0.5:6379', 'redis://10.0.0.6:6379'],
      2_000,
      'repkit-scan',
    ],
  );
  assert.equal(
    progressLine({ inputsDone: 3, inputs: 10, captures: 12_345, elapsedMs: 2_000, etaMs: 130_000 }),
    'scan: 3/10 inputs, 12,345 captures, 6,173/s, ETA 2m 10s',
  );
  await assert.rejects(
    runScan([], parsed(registerScan, 'scan', ['--out', out, '--report', 'nope']).options, again),
    /no report "nope": ai-blocking, ai-use, named-vs-disallowed, status/,
  );
  // A report of a folder that holds no scan (a mistyped --out): said, and nothing made there;
  // it answered an empty report (exit 0), and left an empty database behind.
  const mistyped = join(dir, 'no-scan-here');
  await assert.rejects(
    runScan(
      [],
      parsed(registerScan, 'scan', ['--out', mistyped, '--report', 'status']).options,
      again,
    ),
    new RegExp(`no scan in ${mistyped}: it holds no scan\\.duckdb`),
  );
  assert.equal(existsSync(mistyped), false);
  // A part that is no scan's (its robots.txt files, say): named before --out is made.
  const mergedOut = join(dir, 'merged-out');
  await assert.rejects(
    runScan(
      [out, sites],
      parsed(registerScan, 'scan', ['--merge', '--out', mergedOut]).options,
      again,
    ),
    new RegExp(`${sites}: not a scan's Parquet part: it holds no captures\\.parquet, agents`),
  );
  assert.equal(existsSync(mergedOut), false);
});
