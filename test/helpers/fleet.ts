/**
 * Crawler processes for the fleet tests: each runs test/helpers/fleet-worker.ts with its
 * config and reports its verdicts. `stopWorkers` kills any still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { ROOT } from './shared.ts';
import { childEnv } from './child-env.ts';

const children: ChildProcess[] = [];

/** Kills every worker process started (for `after`). */
export function stopWorkers(): void {
  for (const child of children.splice(0)) child.kill('SIGKILL');
}

export function adoptProcess(child: ChildProcess): void {
  children.push(child);
}

export interface Worker {
  child: ChildProcess;
  warnings(): string;
  ready: Promise<void>;
  result: Promise<{ url: string; allowed: boolean; source: string }[]>;
}

/** Starts a worker process with `config` (see fleet-worker.ts). */
export function startWorker(config: Record<string, unknown>): Worker {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(ROOT, 'test/helpers/fleet-worker.ts'), JSON.stringify(config)],
    { cwd: ROOT, env: childEnv() },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  let markReady: () => void;
  const ready = new Promise<void>((done) => (markReady = done));
  const result = new Promise<{ url: string; allowed: boolean; source: string }[]>((done, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      if (out.startsWith('ready\n')) markReady();
    });
    child.on('close', (code) => {
      const json = out.split('\n').find((line) => line.startsWith('['));
      if (json) done(JSON.parse(json));
      else fail(new Error(`worker exited ${code}: ${err}`));
    });
  });
  return { child, ready, result, warnings: () => err };
}
