import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli.ts';
import { childEnv } from './child-env.ts';
import { ROOT } from './shared.ts';

const START_LIMIT_MS = 120_000;
const STOP_LIMIT_MS = 60_000;

/**
 * The built `repkit serve`, started on a free port in a built environment (see `childEnv`)
 * with `env` added; resolves once it listens.
 */
export async function startServeProcess(
  args: string[] = [],
  env: Record<string, string> = {},
  options: { stdout?: boolean } = {},
): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((done, fail) => {
    let err = '';
    // Far above a loaded machine's start-up: past it the process is killed and the test fails.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`repkit serve did not start within ${START_LIMIT_MS} ms: ${err}`));
    }, START_LIMIT_MS);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk;
      const found = /serving on (http:\/\/[^\s]+)/.exec(err);
      if (found) {
        clearTimeout(timer);
        done(found[1]!);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`repkit serve exited ${code}: ${err}`));
    });
  });
  return { url, child, stop: () => stopChild(child) };
}

/** SIGTERM, then SIGKILL if the process has not exited after STOP_LIMIT_MS; resolves once gone. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}
