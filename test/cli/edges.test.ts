/**
 * The command line at its edges: a reader that closes the pipe early, start-up errors, the
 * version, and standard input.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BIN, runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';
import { childEnv } from '../helpers/child-env.ts';

/** Runs the binary and closes its stdout after the first line, as `| head -1` does. */
function firstLineThenClose(
  args: string[],
  stdin: string,
): Promise<{ code: number; stderr: string; line: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: childEnv({ NO_COLOR: '1' }),
    });
    let stderr = '';
    let line = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (line === '') {
        line = chunk.split('\n')[0]!;
        child.stdout.destroy();
      }
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stderr, line }));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

describe('pipes', () => {
  test('batch and lint stop quietly when the reader closes the pipe', async () => {
    const urls = 'https://example.com/private/x\n'.repeat(100_000);
    const batch = await firstLineThenClose(
      ['batch', '--agent', 'Googlebot', '--robots', 'examples/robots.txt'],
      urls,
    );
    assert.match(batch.line, /^\{"url":"https:\/\/example.com\/private\/x"/);
    assert.equal(batch.stderr, '', 'no EPIPE error, no stack');
    assert.equal(batch.code, 0);
    const big = join(ROOT, '../shared/corpus/robots/docs.oracle.com.txt');
    const lint = await firstLineThenClose(['lint', big], '');
    assert.equal(lint.stderr, '');
    assert.ok(lint.code === 0 || lint.code === 1, `exit ${lint.code}`);
  });

  test('lint - reads the file from standard input', async () => {
    const result = await runCli(['lint', '-'], { stdin: 'User-agent: *\nDisalow: /x\n' });
    assert.equal(result.code, 0);
    assert.match(
      result.stdout,
      /^\(stdin\): read by Google, with 1 warning\(s\)\n\(stdin\):2:1 {2}warning {2}"Disalow" is read as "disallow"/,
    );
  });
});

describe('start-up', () => {
  test('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const result = await runCli(['--version']);
    assert.deepEqual([result.code, result.stdout.trim()], [0, version]);
  });

  test('serve: a port in use and a Redis URL that is not one are one-line errors, exit 2', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const { port } = taken.address() as { port: number };
    try {
      const inUse = await runCli(['serve', '--port', String(port)]);
      assert.equal(inUse.code, 2);
      assert.equal(
        inUse.stderr,
        `repkit: cannot listen on 127.0.0.1:${port}: the address is in use\n`,
      );
    } finally {
      taken.close();
    }
    const badUrl = await runCli(['serve', '--port', '0', '--redis-url', 'notaurl']);
    assert.equal(badUrl.code, 2);
    assert.equal(
      badUrl.stderr,
      'repkit: --redis-url must be a redis:// or rediss:// URL, got "notaurl"\n',
    );
  });
});
