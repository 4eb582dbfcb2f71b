import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './cli.ts';
import { childEnv } from './child-env.ts';
import { ROOT } from './shared.ts';

/**
 * The built `repkit serve`, started on a free port in a built environment (see `childEnv`)
 * with `env` added; resolves once it listens.
 */
export async function startServeProcess(
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((done, fail) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk;
      const found = /serving on (http:\/\/[^\s]+)/.exec(err);
      if (found) done(found[1]!);
    });
    child.on('exit', (code) => fail(new Error(`repkit serve exited ${code}: ${err}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
