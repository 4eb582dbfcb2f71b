/**
 * The command-line examples of the documentation (README.md and docs/), run as written: every
 * `$ repkit ...` line of a console block whose inputs are files of this repository is run
 * with the built binary, and its output must be the block's, line for line (a block ending
 * in `...` shows the first lines only). Each command page shows `repkit <command> --help`,
 * so its list of flags is the binary's. Two examples read a site, which a test cannot reach
 * as written (`fetch` of a loopback server on a fixed port, `usage` of example.com); their
 * commands are tested on loopback sites in test/cli, and this test says which it leaves out.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { blocksOf, docPages } from '../helpers/docs.ts';
import { ROOT } from '../helpers/shared.ts';

interface Example {
  page: string;
  line: number;
  args: string[];
  output: string[];
  /** The block shows the first lines only (it ends in `...`). */
  partial: boolean;
}

/** The arguments of a command line: words, and "..." quoted words (as the README writes them). */
function words(command: string): string[] {
  const found: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (const c of command) {
    if (c === '"') {
      quoted = !quoted;
      started = true;
    } else if (c === ' ' && !quoted) {
      if (started) found.push(current);
      current = '';
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (started) found.push(current);
  return found;
}

function examples(): Example[] {
  const found: Example[] = [];
  for (const block of docPages().flatMap(blocksOf)) {
    if (block.lang !== 'console') continue;
    block.lines.forEach((line, i) => {
      if (!line.startsWith('$ repkit ')) return;
      const output: string[] = [];
      for (let j = i + 1; j < block.lines.length && !block.lines[j]!.startsWith('$ '); j++) {
        output.push(block.lines[j]!);
      }
      const partial = output.at(-1) === '...';
      found.push({
        page: block.page,
        line: block.line + i,
        args: words(line.slice('$ repkit '.length)),
        output: partial ? output.slice(0, -1) : output,
        partial,
      });
    });
  }
  return found;
}

/** Reads a site: not runnable as written here (see the header). */
const readsASite = (args: readonly string[]) =>
  (args[0] === 'fetch' || args[0] === 'usage') && /^https?:\/\//.test(args[1] ?? '');

test('the docs have command-line examples, every command its --help, and all but two are run', () => {
  const all = examples();
  assert.ok(all.length >= 20, `${all.length} examples`);
  assert.deepEqual(
    all.filter((e) => readsASite(e.args)).map((e) => `${e.page} ${e.args[0]}`),
    ['docs/cli/fetch.md fetch', 'docs/cli/usage.md usage'],
  );
  const commands = readdirSync(join(ROOT, 'src/cli/commands')).map((f) => f.replace(/\.ts$/, ''));
  for (const command of commands) {
    assert.ok(
      all.some(
        (e) => e.page === `docs/cli/${command}.md` && e.args.join(' ') === `${command} --help`,
      ),
      `docs/cli/${command}.md shows repkit ${command} --help`,
    );
  }
});

for (const example of examples().filter((e) => !readsASite(e.args))) {
  test(`${example.page} line ${example.line}: repkit ${example.args.join(' ')}`, async () => {
    const result = await runCli(example.args);
    assert.ok(result.code <= 1, `exit ${result.code}: ${result.stderr}`);
    const lines = result.stdout.replace(/\n$/, '').split('\n');
    assert.deepEqual(
      example.partial ? lines.slice(0, example.output.length) : lines,
      example.output,
    );
  });
}
