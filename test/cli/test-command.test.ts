/**
 * `repkit test`: a robots.txt against the expectations of a spec file, as CI runs it: the
 * built binary, spec files on disk, each failure and each spec mistake naming the spec line.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { validateXML } from 'xmllint-wasm';
import { jsonLines, runCli, scratchFiles } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';
import { httpServer, robotsRoute } from '../helpers/servers.ts';

const file = scratchFiles('repkit-test-');

const ROBOTS =
  'User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: GPTBot\nDisallow: /\nContent-Signal: ai-train=no\n';

test('a spec that holds exits 0; one that fails names the spec line, the URL and the deciding line', async () => {
  const robots = file('robots.txt', ROBOTS);
  const spec = file(
    'holds.yaml',
    [
      'robots: robots.txt',
      'site: https://example.com',
      'expect:',
      '  - agent: Googlebot',
      '    allow: [/, /private/press/kit]',
      '    disallow: [/private/x]',
      '  - agent: [Googlebot-Image, GPTBot]',
      '    disallow: [/]',
      '    usage: { train-ai: disallowed }',
    ].join('\n'),
  );
  const holds = await runCli(['test', spec]);
  assert.equal(holds.code, 0, holds.stdout + holds.stderr);
  assert.match(holds.stdout, /holds\.yaml \(.*robots\.txt\): all 5 hold/);
  const failing = file(
    'fails.yaml',
    `robots: ${robots}\nexpect:\n  - agent: Googlebot\n    allow:\n      - /private/secret\n`,
  );
  const fails = await runCli(['test', failing]);
  assert.equal(fails.code, 1);
  assert.match(
    fails.stdout,
    /fails\.yaml:5 {2}fail {2}Googlebot \/private\/secret: expected allowed, the file says disallowed \(line 2: Disallow: \/private\/\)/,
  );
});

test("--init pins today's behaviour: its spec holds on its file and fails when one rule changes", async () => {
  const robots = file('init-robots.txt', ROBOTS);
  const dir = join(robots, '..');
  const spec = join(dir, 'robots.test.yaml');
  const init = await runCli(['test', '--init', spec, '--robots', robots]);
  assert.equal(init.code, 0, init.stderr);
  assert.match(readFileSync(spec, 'utf8'), /agent: GPTBot\n {4}disallow:\n {6}- \//);
  assert.equal((await runCli(['test', spec])).code, 0);
  // The same spec against the file with one rule changed.
  const changed = file(
    'init-changed.txt',
    ROBOTS.replace('Disallow: /private/', 'Disallow: /privat/'),
  );
  const after = await runCli(['test', spec, '--robots', changed]);
  assert.equal(after.code, 1);
  assert.match(after.stdout, /expected disallowed, the file says allowed/);
  // An existing spec is not overwritten.
  const again = await runCli(['test', '--init', spec, '--robots', robots]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /exists: not overwritten/);
});

test('every spec mistake is a usage error naming the spec line', async () => {
  const robots = file('errors-robots.txt', ROBOTS);
  const cases: [string, RegExp][] = [
    [
      `robots: ${robots}\nexpect:\n  - agent: Googlebot\n    alow: [/a]\n`,
      /:4: unknown key "alow"/,
    ],
    [`robots: ${robots}\nexpectations: []\n`, /:2: unknown key "expectations"/],
    [
      `robots: ${robots}\nexpect:\n  - agent: Googlebot\n    allow: [private]\n`,
      /:4: "private" is neither a path/,
    ],
    [
      `robots: ${robots}\nexpect:\n  - agent: Googlebot/2.1\n    allow: [/]\n`,
      /:3: agent "Googlebot\/2\.1" is not a crawler's product token/,
    ],
    [`robots: ${robots}\nexpect:\n  - allow: [/]\n`, /:3: an expectation needs an agent/],
    [
      `robots: ${robots}\nexpect:\n  - agent: X\n    usage: { train-ai: maybe }\n`,
      /:4: train-ai is allowed, disallowed or unknown/,
    ],
    [`robots: ${robots}\nexpect: [\n`, /:\d+: not valid YAML/],
    [`expect:\n  - agent: X\n    allow: [/]\n`, /no robots to test/],
    [`robots: ${robots}\nsite: example.com\nexpect: []\n`, /:2: site must be an http\(s\) URL/],
    [`robots: ${robots}\nexpect:\n  agent: X\n`, /:3: expect is a list/],
    [
      `robots: ${robots}\nexpect:\n  - agent: X\n    usage: { ai-train: disallowed }\n`,
      /:4: unknown usage category "ai-train"/,
    ],
    [
      `robots: ${robots}\nexpect:\n  - agent: X\n    allow: [{ path: /a }]\n`,
      /:4: allow must be text/,
    ],
  ];
  for (const [i, [text, message]] of cases.entries()) {
    const result = await runCli(['test', file(`bad-${i}.yaml`, text)]);
    assert.equal(result.code, 2, text);
    assert.match(result.stderr, message, text);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  }
  // Several specs in one run, each reported; the run fails if one does.
  const good = file('several-1.yaml', `robots: ${robots}\nexpect:\n  - agent: X\n    allow: [/]\n`);
  const bad = file(
    'several-2.yaml',
    `robots: ${robots}\nexpect:\n  - agent: X\n    allow: [/private/a]\n`,
  );
  const several = await runCli(['test', good, bad]);
  assert.equal(several.code, 1);
  assert.match(several.stdout, /several-1\.yaml .*all 1 hold\n.*several-2\.yaml .*1 of 1 fail/s);
  const missing = await runCli(['test'], {});
  assert.equal(missing.code, 2);
  assert.match(
    missing.stderr,
    /robots\.test\.yaml: no such file \(write one with repkit test --init/,
  );
});

test('reporters: JSON lines, a JUnit file valid against its schema, GitHub annotations on the spec lines', async () => {
  const robots = file('report-robots.txt', ROBOTS);
  const spec = file(
    'report.yaml',
    `robots: ${robots}\nexpect:\n  - agent: Googlebot\n    allow: [/ok, /private/no]\n`,
  );
  const junit = join(robots, '..', 'report.xml');
  const result = await runCli(['test', spec, '--json', '--junit', junit], {
    env: { GITHUB_ACTIONS: 'true' },
  });
  assert.equal(result.code, 1);
  const [json, ...annotations] = result.stdout.trim().split('\n');
  const [run] = jsonLines(json!);
  assert.deepEqual([run!.passed, run!.failed], [1, 1]);
  assert.deepEqual(annotations, [
    `::error file=${spec.replace(/:/g, '%3A')},line=4,title=robots.txt expectation::Googlebot /private/no: expected allowed, the file says disallowed (line 2: Disallow: /private/)`,
  ]);
  // The JUnit file is valid against Jenkins' JUnit 4 schema (MIT, test/fixtures/junit),
  // checked by libxml2's xmllint (as WebAssembly), with two cases and one failure, apart
  // from the `file` and `line` of each case: the attributes GitLab, pytest's xunit2 and the
  // GitHub reporters annotate with, which that strict schema does not list.
  const report = readFileSync(junit, 'utf8');
  const schema = readFileSync(join(ROOT, 'test/fixtures/junit/jenkins-junit.xsd'), 'utf8');
  const validation = await validateXML({
    xml: [{ fileName: 'report.xml', contents: report.replace(/ (file|line)="[^"]*"/g, '') }],
    schema: [schema],
  });
  assert.deepEqual(
    validation.errors.map((e) => e.rawMessage),
    [],
  );
  assert.equal(validation.valid, true);
  assert.equal(report.match(/<testcase /g)?.length, 2);
  assert.equal(report.match(/<failure /g)?.length, 1);
  assert.match(report, /name="line 4: Googlebot \/private\/no"/);
  // Each case names its spec and line, the spec relative to the checkout (here the spec was
  // given as an absolute path): no path of the machine that ran it.
  const relativeSpec = relative(ROOT, spec).split(sep).join('/');
  assert.ok(!relativeSpec.startsWith('/'));
  assert.match(
    report,
    new RegExp(
      `<testcase [^>]*file="${relativeSpec.replace(/[.]/g, '\\.')}" line="4" time="\\d+\\.\\d{6}"`,
    ),
  );
  assert.doesNotMatch(report, new RegExp(ROOT.replace(/[/.]/g, '\\$&')));
  assert.match(report, /<testsuite [^>]* time="\d+\.\d{6}"/);
});

test('--live: the served file judged by the same spec and compared with the committed one', async () => {
  const committed = file('live-robots.txt', ROBOTS);
  const spec = file(
    'live.yaml',
    `robots: ${committed}\nexpect:\n  - agent: Googlebot\n    allow: [/, /shop]\n    disallow: [/private/x]\n`,
  );
  let served = ROBOTS;
  let status = 200;
  let type = 'text/plain';
  const site = await httpServer(
    robotsRoute((_req, res) => res.writeHead(status, { 'content-type': type }).end(served)),
  );
  try {
    const same = await runCli(['test', spec, '--live', site.origin]);
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /the served file is the committed one/);
    // A line changed: reported with what it changes; the expectations still hold.
    served = ROBOTS.replace('Allow: /private/press/', 'Allow: /private/pr/');
    const changed = await runCli(['test', spec, '--live', site.origin]);
    assert.equal(changed.code, 0, changed.stdout);
    assert.match(
      changed.stdout,
      /differs from .*: 1 line\(s\) added, 1 removed\n {2}\+ line 3: Allow: \/private\/pr\/\n {2}- line 3: Allow: \/private\/press\//,
    );
    // The classic outage: a staging Disallow: / deployed.
    served = 'User-agent: *\nDisallow: /\n';
    const outage = await runCli(['test', spec, '--live', site.origin]);
    assert.equal(outage.code, 1);
    assert.match(
      outage.stdout,
      /live\.yaml:4 Googlebot \/: allowed in the committed file, disallowed as served/,
    );
    assert.match(
      outage.stdout,
      /live\.yaml:4 {2}fail {2}Googlebot \/: expected allowed, the file says disallowed \(line 2: Disallow: \/\)/,
    );
    // A page served as robots.txt (a challenge, an error page) is its own failure.
    served = '<!DOCTYPE html><html><body>Checking your browser…</body></html>';
    type = 'text/html';
    const page = await runCli(['test', spec, '--live', site.origin]);
    assert.equal(page.code, 1);
    assert.match(page.stdout, /the served robots\.txt is no robots\.txt \(html-content/);
    // A 503: crawlers crawl nothing while it lasts.
    served = '';
    status = 503;
    const down = await runCli(['test', spec, '--live', site.origin]);
    assert.equal(down.code, 1);
    assert.match(
      down.stdout,
      /the served robots\.txt is .*503.*crawlers crawl nothing while it lasts/,
    );
  } finally {
    await site.close();
  }
});

test('under GITHUB_ACTIONS, a line break in a spec path or value starts no workflow command', async () => {
  const robots = file('inject-robots.txt', ROBOTS);
  // A spec whose file name and whose URL each carry a line break and a command after it.
  const spec = file(
    'inject\n::add-mask::secret\n.yaml',
    `robots: ${robots}\nexpect:\n  - agent: Googlebot\n    allow: ["/private/x\\n::error::forged"]\n`,
  );
  const result = await runCli(['test', spec], { env: { GITHUB_ACTIONS: 'true' } });
  assert.equal(result.code, 1, result.stderr);
  const commands = (result.stdout + result.stderr)
    .split('\n')
    .filter((line) => line.startsWith('::'));
  // Only repkit's own annotation, its values escaped as workflow commands need.
  assert.equal(commands.length, 1, commands.join('\n'));
  assert.match(
    commands[0]!,
    /^::error file=[^\n]*inject%0A%3A%3Aadd-mask%3A%3Asecret%0A\.yaml,line=4,/,
  );
  assert.match(commands[0]!, /::Googlebot \/private\/x%0A::error::forged: expected allowed/);
  assert.match(result.stdout, /inject\\n::add-mask::secret\\n\.yaml:4 {2}fail/);
});

test('--junit writes into a folder it makes (the help example, in a fresh checkout)', async () => {
  const robots = file('junit-dir-robots.txt', ROBOTS);
  const spec = file(
    'junit-dir.yaml',
    `robots: ${robots}\nexpect:\n  - agent: Googlebot\n    allow: [/ok]\n`,
  );
  const report = join(robots, '..', `fresh-${process.pid}`, 'reports', 'robots.xml');
  const result = await runCli(['test', spec, '--junit', report]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(readFileSync(report, 'utf8'), /<testsuites/);
  // A path that cannot be a folder is a one-line error, not a stack trace.
  const blocked = await runCli(['test', spec, '--junit', join(robots, 'under-a-file.xml')]);
  assert.equal(blocked.code, 2);
  assert.match(blocked.stderr, /^repkit: cannot write .*under-a-file\.xml: /);
  // Nor under /proc, where Node's recursive mkdir spun forever.
  if (existsSync('/proc/self')) {
    const proc = await runCli(['test', spec, '--junit', `/proc/repkit-${process.pid}/r.xml`]);
    assert.equal(proc.code, 2);
    assert.match(proc.stderr, /^repkit: cannot write \/proc\/repkit-\d+\/r\.xml: ENOENT/);
  }
});
