/**
 * The command-line examples of README.md, run as written: every `$ repkit ...` line of a
 * console block whose inputs are files of this repository is run with the built binary, and
 * its output must be the block's, line for line (a block ending in `...` shows the first
 * lines only). Two examples read a site, which a test cannot reach as written (`fetch` of a
 * loopback server on a fixed port, `usage` of example.com); their commands are tested on
 * loopback sites in test/cli, and this test says which it leaves out.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';

interface Example {
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
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  const found: Example[] = [];
  let inConsole = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '```console') inConsole = true;
    else if (line.startsWith('```')) inConsole = false;
    else if (inConsole && line.startsWith('$ repkit ')) {
      const output: string[] = [];
      let j = i + 1;
      while (!lines[j]!.startsWith('```') && !lines[j]!.startsWith('$ ')) output.push(lines[j++]!);
      const partial = output.at(-1) === '...';
      found.push({
        line: i + 1,
        args: words(line.slice('$ repkit '.length)),
        output: partial ? output.slice(0, -1) : output,
        partial,
      });
    }
  }
  return found;
}

/** Reads a site: not runnable as written here (see the header). */
const readsASite = (args: readonly string[]) =>
  (args[0] === 'fetch' || args[0] === 'usage') && /^https?:\/\//.test(args[1] ?? '');

test('README.md has command-line examples, and all but those reading a site are run', () => {
  const all = examples();
  assert.ok(all.length >= 8, `${all.length} examples`);
  assert.deepEqual(
    all.filter((e) => readsASite(e.args)).map((e) => e.args[0]),
    ['fetch', 'usage'],
  );
});

for (const example of examples().filter((e) => !readsASite(e.args))) {
  test(`README.md line ${example.line}: repkit ${example.args.join(' ')}`, async () => {
    const result = await runCli(example.args);
    assert.ok(result.code <= 1, `exit ${result.code}: ${result.stderr}`);
    const lines = result.stdout.replace(/\n$/, '').split('\n');
    assert.deepEqual(
      example.partial ? lines.slice(0, example.output.length) : lines,
      example.output,
    );
  });
}
