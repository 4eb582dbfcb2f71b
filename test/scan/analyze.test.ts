/**
 * A capture measured as `repkit scan` will report it: the status class and kind a crawler
 * reads, directive counts as Google reads them (a BOM, `Disallow :` and `?` rules counted, as
 * the papers' parsers did not), and per crawler Google's verdict class, held to the core's
 * verdicts on every file of the corpus.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from '../../src/core/index.ts';
import {
  analyzeCapture,
  MAX_CLASS_WORK,
  witnessPath,
  type Capture,
} from '../../src/scan/analyze.ts';
import { SHARED } from '../helpers/shared.ts';

const AGENTS = ['Googlebot', 'GPTBot', 'CCBot', 'ClaudeBot'];
const bytes = (text: string) => new TextEncoder().encode(text);
const capture = (body: string | Uint8Array, status = 200, headers = {}): Capture => ({
  host: 'example.com',
  capturedAt: '2026-11-01T00:00:00Z',
  status,
  headers,
  body: typeof body === 'string' ? bytes(body) : body,
});

test("counts are Google's reading: a BOM, `Disallow :` and `?` rules, file-level Content-Signal", () => {
  const body =
    'User-agent: GPTBot\nDisallow : /\n\nUser-agent: *\nDisallow: /search?q=\nAllow: /\n' +
    'Sitemap: https://example.com/s.xml\n';
  const { capture: row, agents } = analyzeCapture(
    capture(`\uFEFFContent-Signal: ai-train=no\nLicense: https://example.com/l.xml\n${body}`),
    AGENTS,
  );
  assert.deepEqual(
    [row.groups, row.user_agent_lines, row.allow_rules, row.disallow_rules, row.sitemaps],
    [2, 2, 1, 2, 1],
  );
  assert.deepEqual(
    [row.content_signal_file_lines, row.content_signal_group_lines, row.license_lines],
    [1, 0, 1],
  );
  assert.equal(row.status_class, 'file');
  assert.equal(row.kind, 'robots-txt');
  const gpt = agents.find((a) => a.agent === 'GPTBot')!;
  assert.deepEqual(
    [gpt.named, gpt.verdict_class, gpt.root_allowed, gpt.root_line],
    [true, 'all', false, 4],
  );
  const google = agents.find((a) => a.agent === 'Googlebot')!;
  assert.deepEqual(
    [google.named, google.verdict_class, google.root_allowed],
    [false, 'some', true],
  );
});

test('statuses as a crawler reads them: 404 allows all, 503 nothing, a wall or an HTML page in the file’s place', () => {
  const of = (status: number, body = '', headers = {}) =>
    analyzeCapture(capture(body, status, headers), ['GPTBot']);
  assert.deepEqual(
    [of(404).capture.status_class, of(404).agents[0]!.verdict_class],
    ['no-file', 'none'],
  );
  assert.deepEqual(
    [of(503).capture.status_class, of(503).agents[0]!.verdict_class],
    ['unreachable', 'all'],
  );
  // A 3xx whose target the records do not hold is unknown; one with nowhere to go, no file.
  const moved = of(301, '', { location: 'https://www.example.com/robots.txt' });
  assert.deepEqual(
    [moved.capture.status_class, moved.agents[0]!.verdict_class],
    ['redirect', 'unknown'],
  );
  assert.deepEqual(
    [of(301).capture.status_class, of(301).agents[0]!.verdict_class],
    ['no-file', 'none'],
  );
  const page = '<!DOCTYPE html><html><head><title>Shop</title></head><body>Hi</body></html>';
  const html = of(200, page, { 'content-type': 'text/html' });
  // Google parses what a 200 serves: an HTML page has no rules, so all is allowed.
  assert.deepEqual(
    [html.capture.status_class, html.capture.kind, html.agents[0]!.verdict_class],
    ['html', 'html', 'none'],
  );
  const wall = of(403, '', { 'cf-mitigated': 'challenge' });
  assert.deepEqual(
    [wall.capture.status_class, wall.agents[0]!.verdict_class],
    ['challenge', 'none'],
  );
  assert.equal(
    of(402, '', { 'crawler-price': 'USD 0.01' }).capture.status_class,
    'payment-required',
  );
  const utf16 = new Uint8Array([0xff, 0xfe, ...bytes('U\0s\0e\0r\0')]);
  assert.equal(analyzeCapture(capture(utf16), []).capture.kind, 'utf-16');
  assert.equal(analyzeCapture(capture(''), []).capture.kind, 'empty');
  const big = `User-agent: *\nDisallow: /a\n${'#'.repeat(600 * 1024)}\n`;
  assert.equal(analyzeCapture(capture(big), []).capture.cut, true);
});

test('a home page let in above a site shut out is some, not none: the path under a rule is judged too', () => {
  const row = (body: string) => analyzeCapture(capture(body), ['GPTBot']).agents[0]!;
  const home = row('User-agent: *\nAllow: /$\nDisallow: /\n');
  assert.deepEqual([home.verdict_class, home.root_allowed, home.root_line], ['some', true, 2]);
  assert.equal(row('User-agent: *\nDisallow: /\n').verdict_class, 'all');
  assert.equal(row('User-agent: *\nDisallow: /$\n').verdict_class, 'all');
  assert.equal(row('User-agent: *\nAllow: /\n').verdict_class, 'none');
});

test("a rule's witness path is a path the rule matches", () => {
  for (const value of ['/private/', '/*.pdf$', '/a*b*c', '/x$', '*/admin', '/search?q=*']) {
    const robots = parse(`User-agent: *\nDisallow: ${value}\n`);
    assert.equal(robots.isAllowed(witnessPath(value), 'AnyBot'), false, value);
  }
});

test("every corpus file: each crawler's class and deciding line are the core's verdicts", () => {
  const dir = join(SHARED, 'corpus/robots');
  let files = 0;
  const classes = new Map<string, number>();
  for (const name of readdirSync(dir)) {
    const body = readFileSync(join(dir, name));
    const { agents } = analyzeCapture(capture(body), AGENTS);
    const robots = parse(body);
    for (const row of agents) {
      const root = robots.explain('/', row.agent);
      assert.equal(row.root_allowed, root.allowed, `${name} ${row.agent}`);
      assert.equal(row.root_line, root.line, `${name} ${row.agent}`);
      assert.equal(row.named, robots.groupsFor(row.agent).scope === 'specific', name);
      // `all` never lets `/` through, `none` never keeps anything out.
      if (row.verdict_class === 'all') assert.equal(root.allowed, false, name);
      if (row.verdict_class === 'none') {
        for (const group of robots.groupsFor(row.agent).groups) {
          for (const rule of group.rules) {
            assert.ok(
              robots.isAllowed(witnessPath(rule.value), row.agent),
              `${name} ${rule.value}`,
            );
          }
        }
      }
      classes.set(row.verdict_class, (classes.get(row.verdict_class) ?? 0) + 1);
    }
    files++;
  }
  assert.ok(files >= 4_000, `${files} files`);
  // The corpus holds every class (a measurement that found only one would be suspect).
  for (const kind of ['all', 'some', 'none']) assert.ok((classes.get(kind) ?? 0) > 0, kind);
});

test("a crawler's class costs at most MAX_CLASS_WORK checks: past it, undecided is unknown", () => {
  const file = (rules: number) => {
    let body = 'User-agent: *\nDisallow: /\n';
    for (let i = 0; i < rules; i++) body += `Disallow: /*a${i}*b*c*d$\n`;
    return body;
  };
  // Every path disallowed: the class needs every one judged. 1,500 rules fit the budget...
  assert.ok(1_501 * 1_501 < MAX_CLASS_WORK);
  assert.equal(analyzeCapture(capture(file(1_500)), ['AnyBot']).agents[0]!.verdict_class, 'all');
  // ...a 500 KiB file of 19,000 does not: it stops, unknown, rather than judging them all.
  const hostile = analyzeCapture(capture(file(19_000)), ['AnyBot']).agents[0]!;
  assert.deepEqual(
    [hostile.verdict_class, hostile.root_allowed, hostile.root_line],
    ['unknown', false, 2],
  );
  // A class decided early (one path allowed, one not) is decided whatever follows.
  const mixed = `User-agent: *\nAllow: /public\n${file(19_000).slice(14)}`;
  assert.equal(analyzeCapture(capture(mixed), ['AnyBot']).agents[0]!.verdict_class, 'some');
});
