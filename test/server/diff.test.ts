/**
 * One diff: `repkit diff` and `POST /v1/diff` are answered by the same function, so they give
 * the same changes for the same files, URLs and crawlers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService, type RunningService } from '../../src/server/index.ts';
import { runCli, scratchFiles } from '../helpers/cli.ts';

const file = scratchFiles('repkit-diff-');
let service: RunningService;
before(async () => {
  service = await startService({ port: 0 });
});
after(() => service.close());

test('POST /v1/diff is repkit diff: request targets, "*" and the default crawlers alike', async () => {
  const old = 'User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nAllow: /\n';
  const next = 'User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /open/\nDisallow: /\n';
  // `/a/../private/x` is requested as `/private/x`.
  const urls = ['/a/../private/x', '/open/x', '/other', '/open/%7Ex'];
  const cli = await runCli([
    'diff',
    file('old.txt', old),
    file('new.txt', next),
    '--urls',
    file('urls.txt', urls.join('\n')),
    '--json',
  ]);
  const response = await fetch(`${service.url}/v1/diff`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ old, new: next, urls }),
  });
  assert.equal(response.status, 200);
  const served = { json: (await response.json()) as Record<string, unknown> };
  type Change = { url: string; agent: string; before: { allowed: boolean; line: number } };
  const key = (c: Change & { after: { allowed: boolean; line: number } }) =>
    `${c.agent} ${c.url} ${c.before.allowed}:${c.before.line} → ${c.after.allowed}:${c.after.line}`;
  const fromCli = cli.stdout
    .trim()
    .split('\n')
    .map((l) => key(JSON.parse(l)));
  const fromService = (served.json!.changes as Parameters<typeof key>[0][]).map(key);
  assert.deepEqual(fromService, fromCli);
  assert.deepEqual(served.json!.agents, ['Googlebot', 'GPTBot', '*']);
  // Judged as requested, `/a/../private/x` was already disallowed for GPTBot and `*`.
  assert.deepEqual(fromCli, [
    'Googlebot /a/../private/x true:5 → false:2',
    'Googlebot /open/x true:5 → false:2',
    'Googlebot /other true:5 → false:2',
    'Googlebot /open/%7Ex true:5 → false:2',
    'GPTBot /other true:0 → false:6',
    '* /open/x true:0 → false:2',
    '* /other true:0 → false:2',
    '* /open/%7Ex true:0 → false:2',
  ]);
  const changed = served.json!.changes as { url: string; requestUrl?: string }[];
  assert.equal(changed.find((c) => c.url === '/a/../private/x')!.requestUrl, '/private/x');
});

test("POST /v1/diff without urls compares the paths from both bodies' rules, as the CLI does", async () => {
  const old = 'User-agent: *\nDisallow: /private/\n';
  const next = 'User-agent: *\nDisallow: /private/\nDisallow: /*.css$\nAllow: /private/press/\n';
  const response = await fetch(`${service.url}/v1/diff`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ old, new: next }),
  });
  assert.equal(response.status, 200);
  const answer = (await response.json()) as {
    changes: { url: string; agent: string }[];
    probed: number;
  };
  const cli = await runCli([
    'diff',
    file('old-probe.txt', old),
    file('new-probe.txt', next),
    '--json',
  ]);
  const fromCli = cli.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { url: string; agent: string });
  assert.deepEqual(
    answer.changes.map((c) => [c.agent, c.url]),
    fromCli.map((c) => [c.agent, c.url]),
  );
  assert.deepEqual(
    answer.changes.map((c) => c.url),
    ['/x.css', '/private/press/', '/private/press/x'],
  );
  assert.equal(answer.probed, 7);
});

test('POST /v1/diff is bounded by bytes: past them a truncated list and a summary, streamed', async () => {
  // Long rules, each deciding for many URLs and crawlers: the full answer would be over
  // 40 MB for a request of about 400 KB.
  // Runs of `*` match nothing more, but stand in the rule's text.
  const long = '*'.repeat(4_000);
  const rules = Array.from({ length: 90 }, (_, i) => `Disallow: /${i}/${long}`).join('\n');
  const oldBody = `User-agent: *\n${rules}\n`;
  const newBody = 'User-agent: *\nAllow: /\n';
  const urls = Array.from({ length: 1_000 }, (_, i) => `/${i % 90}/${i}`);
  const agents = Array.from({ length: 10 }, (_, i) => `Bot${String.fromCharCode(97 + i)}`);
  const response = await fetch(`${service.url}/v1/diff`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ old: oldBody, new: newBody, urls, agents }),
  });
  assert.equal(response.status, 200);
  const text = await response.text();
  assert.ok(text.length <= 4.5 * 1024 * 1024, `${text.length} bytes answered`);
  const answer = JSON.parse(text) as {
    changes: unknown[];
    checked: number;
    truncated?: { total: number; listed: number; maxBytes: number; summary: { count: number }[] };
  };
  assert.equal(answer.checked, 10_000);
  assert.equal(answer.truncated?.total, 10_000);
  assert.equal(answer.truncated?.listed, answer.changes.length);
  assert.ok(answer.changes.length > 0 && answer.changes.length < 10_000);
  assert.equal(answer.truncated?.maxBytes, 4 * 1024 * 1024);
  // The summary counts every change, grouped.
  assert.equal(
    answer.truncated!.summary.reduce((sum, g) => sum + g.count, 0),
    10_000,
  );
  const health = await fetch(`${service.url}/healthz`);
  assert.equal(health.status, 200);
});
