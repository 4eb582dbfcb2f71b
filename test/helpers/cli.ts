import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { childEnv } from './child-env.ts';
import { ROOT } from './shared.ts';

/** The built binary, as `npx repkit` runs it (npm test builds before testing). */
export const BIN = resolve(ROOT, 'dist/cli/index.js');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** How long a run may take before it is killed and fails as hung: far above a loaded machine's. */
const RUN_LIMIT_MS = 240_000;

/**
 * Runs the built `repkit` binary with `args`, feeding `stdin`, in a built environment (see
 * `childEnv`: nothing of the runner's REDIS_URL, REPKIT_*, proxies or colour settings) with
 * colour off unless `env` asks for it. A run that has not exited after `limitMs` is killed
 * and rejects with what it printed: a hung command fails its test instead of hanging the file.
 */
export function runCli(
  args: string[],
  options: { stdin?: string; env?: Record<string, string>; limitMs?: number; cwd?: string } = {},
): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: childEnv({ NO_COLOR: '1', ...options.env }),
    });
    let stdout = '';
    let stderr = '';
    let hung = false;
    const limit = options.limitMs ?? RUN_LIMIT_MS;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, limit);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (hung) {
        const printed = `stdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`;
        fail(new Error(`repkit ${args.join(' ')} had not exited after ${limit} ms\n${printed}`));
      } else done({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** A scratch directory, and a function that writes a file into it and answers its path. */
export function scratchFiles(prefix: string): (name: string, text: string | Uint8Array) => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return (name, text) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
}

/** Output of `--json` commands: one object per line. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
