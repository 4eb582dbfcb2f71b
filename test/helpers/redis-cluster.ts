/**
 * A real Redis Cluster on loopback for the tests: three `redis-server --cluster-enabled yes`
 * masters on free ports in a temporary directory, joined with `redis-cli --cluster create`.
 * The test that starts it stops it (processes killed, directory removed): nothing persists.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface LocalCluster {
  /** `redis://127.0.0.1:<port>` of each master. */
  urls: string[];
  /** Kills master `index` (SIGKILL, by its PID) and waits for it to exit. */
  kill(index: number): Promise<void>;
  /** Stops (SIGSTOP) or resumes (SIGCONT) master `index`, by its PID. */
  signal(index: number, signal: 'SIGSTOP' | 'SIGCONT'): void;
  stop(): Promise<void>;
}

/** Whether `port` (and the cluster bus port, port + 10000) can be listened on. */
async function free(port: number): Promise<boolean> {
  for (const p of [port, port + 10_000]) {
    const ok = await new Promise<boolean>((done) => {
      const server = createServer();
      server.once('error', () => done(false));
      server.listen(p, '127.0.0.1', () => server.close(() => done(true)));
    });
    if (!ok) return false;
  }
  return true;
}

export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (!ports.includes(port) && (await free(port))) ports.push(port);
  }
  return ports;
}

async function clusterState(port: number): Promise<string> {
  try {
    const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
    return /cluster_state:(\w+)/.exec(stdout)?.[1] ?? 'unknown';
  } catch {
    return 'down';
  }
}

async function until(what: string, ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const start = Date.now();
  while (!(await ok())) {
    if (Date.now() - start > ms) throw new Error(`local Redis Cluster: ${what} timed out`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** Starts three masters and joins them; rejects (never skips) when redis-server is missing. */
export async function startCluster(): Promise<LocalCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'repkit-cluster-'));
  const ports = await freePorts(3);
  const servers: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    // A stopped server is resumed first, so that it can take the kill and exit.
    for (const server of servers) server.kill('SIGCONT');
    for (const server of servers) server.kill('SIGKILL');
    await Promise.all(
      servers.map((s) =>
        s.exitCode !== null || s.signalCode !== null
          ? undefined
          : new Promise((done) => s.once('exit', done)),
      ),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      const server = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
        ],
        { stdio: 'ignore' },
      );
      servers.push(server);
      await new Promise<void>((done, fail) => {
        server.once('error', (error) =>
          fail(new Error(`local Redis Cluster: cannot start redis-server (${error.message})`)),
        );
        server.once('spawn', () => done());
      });
    }
    await until('servers starting', async () =>
      (await Promise.all(ports.map(clusterState))).every((s) => s !== 'down'),
    );
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    await until('cluster forming', async () =>
      (await Promise.all(ports.map(clusterState))).every((s) => s === 'ok'),
    );
    const kill = async (index: number): Promise<void> => {
      const server = servers[index]!;
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGKILL');
      await exited;
    };
    const signal = (index: number, name: 'SIGSTOP' | 'SIGCONT'): void => {
      servers[index]!.kill(name);
    };
    return { urls: ports.map((p) => `redis://127.0.0.1:${p}`), kill, signal, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
