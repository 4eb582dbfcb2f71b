/**
 * The command line reads bounded: a robots.txt from an endless device or a gigabyte on stdin
 * costs its first 8 MiB, and a batch line longer than 65,536 characters is rejected as it
 * streams by, without being held or scanned again.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { BIN } from '../helpers/cli.ts';
import { ROOT } from '../helpers/shared.ts';
import { childEnv } from '../helpers/child-env.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  killed: boolean;
}

/** Runs the CLI with `feed` writing its stdin; killed after `ms`. */
function run(
  args: string[],
  feed: (stdin: NodeJS.WritableStream) => void,
  ms = 30_000,
): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: childEnv({ NO_COLOR: '1' }),
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, ms);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin.on('error', () => {}); // EPIPE once the CLI has read enough
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, killed });
    });
    feed(child.stdin);
  });
}

test('--robots /dev/zero reads 8 MiB and answers', async () => {
  const result = await run(['check', '--robots', '/dev/zero', '--agent', 'bot', '/x'], (s) =>
    s.end(),
  );
  assert.equal(result.killed, false, 'finished');
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /\/dev\/zero is longer than 8 MiB; read its first 8 MiB/);
});

test('--robots - with 64 MiB on stdin reads 8 MiB and answers', async () => {
  const result = await run(['check', '--robots', '-', '--agent', 'bot', '/private/x'], (stdin) => {
    const head = Buffer.from('User-agent: *\nDisallow: /private/\n');
    const filler = Buffer.alloc(1024 * 1024, '#');
    let left = 64;
    stdin.write(head);
    const more = (): void => {
      while (left > 0) {
        left--;
        if (!stdin.write(filler)) return void stdin.once('drain', more);
      }
      stdin.end();
    };
    more();
  });
  assert.equal(result.killed, false, 'finished');
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, /disallowed/);
  assert.match(result.stderr, /standard input is longer than 8 MiB/);
});

test('batch: a 16 MiB line is rejected by its length, and the lines after it are checked', async () => {
  const result = await run(['batch', '--robots', '/dev/null', '--agent', 'bot'], (stdin) => {
    stdin.write('/first\n');
    stdin.write('/' + 'a'.repeat(16 * 1024 * 1024) + '\n');
    stdin.end('/last\n');
  });
  assert.equal(result.killed, false, 'finished');
  const lines = result.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { url: string; error?: string });
  assert.equal(lines.length, 3);
  assert.equal(lines[0]!.url, '/first');
  assert.match(lines[1]!.error ?? '', /stdin line 2: longer than 65,536 characters/);
  assert.ok(lines[1]!.url.length < 100, 'the long line is not echoed back');
  assert.equal(lines[2]!.url, '/last');
  assert.equal(result.code, 2);
});
