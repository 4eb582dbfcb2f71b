/**
 * `repkit usage`: robots.txt, the site's tdmrep.json and the page together, each answer with
 * where it comes from.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

let site: TestServer;
before(async () => {
  site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res
        .writeHead(200)
        .end(
          'User-agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\nContent-Signal: search=yes\n',
        );
    }
    if (req.url === '/llms.txt') return void res.writeHead(200).end('# The Site\n');
    if (req.url === '/.well-known/tdmrep.json') {
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify([
          {
            location: '/papers/*.pdf$',
            'tdm-reservation': 1,
            'tdm-policy': 'https://p.example/policy.json',
          },
          { location: '/papers/', 'tdm-reservation': 0 },
        ]),
      );
    }
    const noai = req.url?.includes('noai') ? '<meta name="robots" content="noai">' : '';
    const tdmMeta = req.url?.includes('tdm-meta')
      ? '<meta name="tdm-reservation" content="0">'
      : '';
    const headers: Record<string, string> = {
      'content-type': 'text/html',
      'content-usage': 'search=y',
    };
    if (req.url?.includes('tdm-header')) headers['tdm-reservation'] = '1';
    res.writeHead(200, headers).end(`<html><head>${noai}${tdmMeta}</head><body>x</body></html>`);
  });
});
after(() => site.close());

interface Source {
  kind: string;
  line?: number;
  text?: string;
  field?: string;
  name?: string;
  rule?: number;
}
interface Answer {
  fetch: { may: boolean };
  index: { may: boolean };
  'train-ai': { preference: string; statements: { preference: string; source: Source }[] };
  search: { preference: string; statements: { preference: string; source: Source }[] };
  tdm: { reservation: string; policy?: string; decidedBy?: Source };
}

async function usage(path: string): Promise<{ code: number; json: Answer; stdout: string }> {
  const result = await runCli(['usage', `${site.origin}${path}`, '--agent', 'GPTBot', '--json']);
  return { code: result.code, json: JSON.parse(result.stdout) as Answer, stdout: result.stdout };
}

test("the attach draft's paths: train-ai from the longest Content-Usage path, search from every source", async () => {
  const plain = await usage('/test');
  assert.equal(plain.code, 0);
  assert.deepEqual([plain.json.fetch.may, plain.json.index.may], [true, true]);
  assert.equal(plain.json['train-ai'].preference, 'disallowed');
  assert.equal(plain.json.search.preference, 'allowed');
  assert.deepEqual(
    plain.json.search.statements.map((s) => s.source),
    [
      { kind: 'robots-txt', line: 6, text: 'Content-Signal: search=yes' },
      { kind: 'header', field: 'Content-Usage', text: 'search=y' },
    ],
  );
  assert.equal((await usage('/ai-ok/test')).json['train-ai'].preference, 'allowed');
});

test('a noai meta tag disallows AI training whatever robots.txt allows; a blocked URL has no preference', async () => {
  assert.equal((await usage('/ai-ok/x')).json['train-ai'].preference, 'allowed');
  const both = await usage('/ai-ok/noai');
  assert.equal(both.json['train-ai'].preference, 'disallowed', 'any no wins');
  assert.deepEqual(
    both.json['train-ai'].statements.map((s) => s.source),
    [
      { kind: 'robots-txt', line: 5, text: 'Content-Usage: /ai-ok/ train-ai=y' },
      { kind: 'meta', name: 'robots', line: 1, text: 'noai' },
    ],
  );
  const blocked = await usage('/never/x');
  assert.equal(blocked.code, 1);
  assert.deepEqual(
    [blocked.json.fetch.may, blocked.json['train-ai'].preference, blocked.json.tdm.reservation],
    [false, 'unknown', 'unset'],
  );
  assert.ok(
    site.requests.every((r) => !r.path.startsWith('/never/')),
    'a blocked page is never fetched',
  );
});

test('TDMRep: the first matching tdmrep.json rule, superseded by the header, then by the meta tag', async () => {
  const pdf = await usage('/papers/a.pdf');
  assert.equal(pdf.json.tdm.reservation, 'reserved');
  assert.equal(pdf.json.tdm.policy, 'https://p.example/policy.json');
  assert.deepEqual(pdf.json.tdm.decidedBy, {
    kind: 'tdmrep',
    url: `${site.origin}/.well-known/tdmrep.json`,
    rule: 0,
    location: '/papers/*.pdf$',
  });
  // A reservation is a "no" to training, beside robots.txt's own.
  assert.ok(pdf.json['train-ai'].statements.some((s) => s.source.kind === 'tdmrep'));
  const page = await usage('/papers/a.pdf.html');
  assert.equal(page.json.tdm.reservation, 'not-reserved', 'second rule: $ ends the first');
  assert.equal(page.json.tdm.policy, undefined, 'no policy when not reserved');
  const header = await usage('/papers/tdm-header');
  assert.equal(header.json.tdm.reservation, 'reserved');
  assert.equal(header.json.tdm.decidedBy?.kind, 'header');
  const meta = await usage('/papers/tdm-header-and-tdm-meta');
  assert.equal(meta.json.tdm.reservation, 'not-reserved', 'the meta tag supersedes the header');
  assert.equal(meta.json.tdm.decidedBy?.kind, 'meta');
  const none = await usage('/elsewhere');
  assert.equal(none.json.tdm.reservation, 'unset');
  const human = await runCli(['usage', `${site.origin}/papers/a.pdf`, '--agent', 'GPTBot']);
  assert.match(
    human.stdout,
    /tdm\s+reserved\s+.*tdmrep\.json rule 1 \(\/papers\/\*\.pdf\$\); policy https:\/\/p\.example\/policy\.json/,
  );
  const fetches = site.requests.filter((r) => r.path === '/.well-known/tdmrep.json').length;
  assert.ok(fetches >= 1);
});

test('a robots.txt that cannot be reached: nothing fetched for now, and said so', async () => {
  const gone = await httpServer((_req, res) => res.writeHead(503).end());
  const origin = gone.origin;
  const result = await runCli(['usage', `${origin}/page`, '--agent', 'GPTBot', '--json']);
  await gone.close();
  const json = JSON.parse(result.stdout) as Answer;
  assert.equal(result.code, 1);
  assert.equal(json.fetch.may, false);
  assert.match((json.index as { why?: string }).why ?? '', /cannot be reached/);
  assert.equal(json.tdm.reservation, 'unset');
  assert.ok(!gone.requests.some((r) => r.path === '/page'), 'the page is not fetched');
});

test('usage: without --agent, the --user-agent header names the crawler, as in check', async () => {
  const result = await runCli([
    'usage',
    `${site.origin}/page`,
    '--user-agent',
    'ExampleBot/1.0 (+https://example.com/bot)',
    '--json',
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual((JSON.parse(result.stdout) as { agent: string[] }).agent, ['ExampleBot']);
  const neither = await runCli(['usage', `${site.origin}/page`]);
  assert.equal(neither.code, 2);
  assert.match(neither.stderr, /give the crawler to ask about/);
});

test('a tdmrep.json redirect that robots.txt disallows is not followed, and named', async () => {
  const redirecting = await httpServer((req, res) => {
    if (req.url === '/robots.txt')
      return void res.writeHead(200).end('User-agent: *\nDisallow: /hidden/\n');
    if (req.url === '/.well-known/tdmrep.json') {
      return void res.writeHead(302, { location: '/hidden/tdm.json' }).end();
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>p</title>');
  });
  try {
    const json = await runCli([
      'usage',
      `${redirecting.origin}/page`,
      '--agent',
      'GPTBot',
      '--json',
    ]);
    const answer = JSON.parse(json.stdout) as { tdm: { file?: { refusedHop?: { url: string } } } };
    assert.equal(answer.tdm.file?.refusedHop?.url, `${redirecting.origin}/hidden/tdm.json`);
    const text = await runCli(['usage', `${redirecting.origin}/page`, '--agent', 'GPTBot']);
    assert.match(
      text.stdout,
      /not sent\s+\S+\/hidden\/tdm\.json\s+\(tdmrep\.json redirect: .*its robots\.txt disallows it/,
    );
    assert.ok(redirecting.requests.every((r) => !r.path.startsWith('/hidden/')));
  } finally {
    await redirecting.close();
  }
});

test("--llms: the site's llms.txt fetched and reported, in JSON and in words", async () => {
  const json = await runCli([
    'usage',
    `${site.origin}/test`,
    '--agent',
    'GPTBot',
    '--llms',
    '--json',
  ]);
  assert.equal(json.code, 0);
  assert.deepEqual(JSON.parse(json.stdout).llmsTxt, {
    kind: 'fetched',
    url: `${site.origin}/llms.txt`,
    status: 200,
    bytes: 11,
    title: 'The Site',
  });
  const text = await runCli(['usage', `${site.origin}/test`, '--agent', 'GPTBot', '--llms']);
  assert.match(
    text.stdout,
    /llms\.txt +http:\/\/127\.0\.0\.1:\d+\/llms\.txt +status 200, 11 bytes, "The Site"/,
  );
  const without = await runCli(['usage', `${site.origin}/test`, '--json']);
  assert.equal(JSON.parse(without.stdout).llmsTxt, undefined);
});
