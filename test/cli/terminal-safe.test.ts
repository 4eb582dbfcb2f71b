/**
 * Text from a site never acts on the terminal: control characters in robots.txt lines and in
 * a 402's price fields are written as escapes by every command that prints them, and only
 * repkit's own colours stay where colour is on.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { terminalSafe } from '../../src/cli/output.ts';
import { runCli, scratchFiles } from '../helpers/cli.ts';
import { httpServer, type TestServer } from '../helpers/servers.ts';

/** A title change, a screen clear, a carriage return and a right-to-left override. */
const HOSTILE = '\x1b]0;owned\x07\x1b[2J\r\u202e';
/** The same but the carriage return, which ends a robots.txt line. */
const IN_LINE = '\x1b]0;owned\x07\x1b[2J\u202e';
const ROBOTS = `User-agent: *\nDisallow: /x${IN_LINE}\nAllow: /y${IN_LINE}\nNoise${IN_LINE}: z\n`;
const file = scratchFiles('repkit-terminal-');

let site: TestServer;
before(async () => {
  site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end(ROBOTS);
    // A payment demand whose asset and network carry escapes.
    const demand = {
      x402Version: 1,
      accepts: [
        {
          scheme: 'exact',
          network: `base${HOSTILE}`,
          maxAmountRequired: '5',
          asset: `USDC${HOSTILE}`,
        },
      ],
    };
    res.writeHead(402, { 'content-type': 'application/json' }).end(JSON.stringify(demand));
  });
});
after(() => site.close());

/** No byte a terminal acts on, but newline and tab (colours off here: NO_COLOR). */
function assertInert(text: string, what: string): void {
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  const raw = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/.exec(text);
  assert.equal(raw, null, `${what} wrote ${JSON.stringify(raw?.[0])}: ${JSON.stringify(text)}`);
}

test('lint, check, explain, diff and fetch write a hostile robots.txt inert', async () => {
  const robots = file('robots.txt', ROBOTS);
  const other = file('other.txt', 'User-agent: *\nDisallow:\n');
  const url = `https://example.com/x${IN_LINE}`;
  const runs = {
    lint: await runCli(['lint', robots]),
    check: await runCli(['check', '--robots', robots, '--agent', 'bot', url]),
    explain: await runCli([
      'explain',
      '--robots',
      robots,
      '--agent',
      'bot',
      'https://example.com/x',
    ]),
    diff: await runCli(['diff', robots, other, '--agent', 'bot']),
    'diff --format markdown': await runCli([
      'diff',
      robots,
      other,
      '--agent',
      'bot',
      '--format',
      'markdown',
    ]),
    fetch: await runCli(['fetch', site.origin]),
  };
  for (const [name, run] of Object.entries(runs)) {
    assertInert(run.stdout, `${name} (stdout)`);
    assertInert(run.stderr, `${name} (stderr)`);
  }
  // What was escaped is still shown, as escapes.
  assert.match(runs.lint.stdout + runs.explain.stdout, /\\x1B\]0;owned\\x07/);
});

test("a 402's price fields are written inert", async () => {
  const run = await runCli(['check', '--agent', 'bot', `${site.origin}/page`]);
  assertInert(run.stdout + run.stderr, 'check of a paid site');
});

test('terminalSafe keeps only the colours picocolors writes, where colour is on', () => {
  const line = `\x1b[31mred\x1b[39m ${HOSTILE} \x1b[8mhidden\x1b[28m`;
  assert.equal(
    terminalSafe(line, true),
    '\x1b[31mred\x1b[39m \\x1B]0;owned\\x07\\x1B[2J\\x0D\\u202E \\x1B[8mhidden\\x1B[28m',
  );
  assert.equal(terminalSafe(line, false).includes('\x1b'), false);
  assert.equal(terminalSafe('plain\ttext\nnext', false), 'plain\ttext\nnext');
});
