/**
 * A crawler fleet on one Redis, as deployed: P worker processes (fleet-worker.ts), each with a
 * RobotsClient in its default configuration, asking about the same O origins in their own
 * shuffled order. The origins are names served by eight loopback servers with the corpus's
 * real files (5% 404, 5% 503, 5% answering after 300 ms). The bench starts its own
 * `redis-server` on a free port and stops it by its PID.
 *
 * - cold: an empty store; every process meets every origin at once.
 * - warm: new processes on the filled store (the fleet restarted, or grown).
 * - a day later: new processes whose clock is 25 hours on, so every copy is stale; the
 *   servers send an ETag and answer 304 to it, so each file is revalidated, not fetched.
 * - hung store: new processes going round the origins for 12 s; Redis is stopped (SIGSTOP)
 *   from second 4 to second 8. The throughput while it is stopped, against before.
 * - an outage: the same for 20 s, Redis killed at second 4 (after a SAVE) and started again
 *   from its snapshot at second 14, as a Redis with persistence comes back.
 *
 * Each reports robots.txt fetches per origin, Redis commands per check, CPU per check and the
 * largest worker's peak RSS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createConnection, createServer as createNetServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FleetWorkerConfig, FleetWorkerReport } from './fleet-worker.ts';
import { CORPUS_DIR } from './workloads.ts';

const SERVERS = 8;
const WORKER = fileURLToPath(new URL('./fleet-worker.js', import.meta.url));

type Record = (metric: string, peer: string, value: number) => void;

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** Sends one inline Redis command and resolves with the reply's text. */
function redisCommand(port: number, command: string): Promise<string> {
  return new Promise((done, fail) => {
    const socket = createConnection(port, '127.0.0.1');
    let reply = '';
    socket.on('error', fail);
    socket.on('data', (d: Buffer) => {
      reply += d;
      // A bulk reply ($len\r\n...\r\n) or a one-line reply (+OK, :n).
      const bulk = /^\$(\d+)\r\n/.exec(reply);
      if (
        (bulk && reply.length >= bulk[0].length + Number(bulk[1]) + 2) ||
        (!bulk && reply.endsWith('\r\n'))
      ) {
        socket.end();
        done(reply);
      }
    });
    socket.write(`${command}\r\n`);
  });
}

/**
 * A redis-server on `port` (a free one if not given) keeping its snapshot in `dir` (written
 * only when asked, by SAVE; read when it starts), so that a killed server can come back with
 * its data.
 */
export async function startRedis(
  dir: string,
  port?: number,
): Promise<{ port: number; child: ChildProcess }> {
  port ??= await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore', cwd: dir },
  );
  for (let tries = 0; ; tries++) {
    try {
      if ((await redisCommand(port, 'PING')).startsWith('+PONG')) return { port, child };
    } catch {
      if (tries > 100) throw new Error(`bench: redis-server did not start on port ${port}`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
}

async function commandsProcessed(port: number): Promise<number> {
  const info = await redisCommand(port, 'INFO stats');
  return Number(/total_commands_processed:(\d+)/.exec(info)![1]);
}

/**
 * Runs `count` workers: once every one says `ready`, calls `onStart` with one start time a
 * quarter second on, tells the workers, and resolves with their reports.
 */
async function runWorkers(
  count: number,
  config: (index: number) => FleetWorkerConfig,
  onStart: (startAt: number) => Promise<void>,
): Promise<FleetWorkerReport[]> {
  const children = Array.from({ length: count }, (_, i) =>
    spawn(process.execPath, [WORKER, JSON.stringify(config(i))], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const outputs = children.map(() => '');
  const ready = children.map(
    (child, i) =>
      new Promise<void>((done) => {
        child.stdout.on('data', (d: Buffer) => {
          outputs[i] = outputs[i]! + String(d);
          if (outputs[i]!.startsWith('ready\n')) done();
        });
      }),
  );
  const reports = children.map(
    (child, i) =>
      new Promise<FleetWorkerReport>((done, fail) => {
        child.on('error', fail);
        child.on('close', (code) => {
          try {
            done(JSON.parse(outputs[i]!.trim().split('\n').at(-1)!) as FleetWorkerReport);
          } catch {
            fail(new Error(`fleet worker exited ${code}: ${outputs[i]}`));
          }
        });
      }),
  );
  // A worker that dies before it is ready fails the bench here instead of hanging it.
  await Promise.race([Promise.all(ready), Promise.all(reports)]);
  const startAt = Date.now() + 250;
  await onStart(startAt);
  for (const child of children) child.stdin.end(`${startAt}\n`);
  return Promise.all(reports);
}

export async function benchFleet(record: Record, shapes: [number, number][]): Promise<void> {
  const corpus = readdirSync(CORPUS_DIR)
    .sort()
    .map((name) => readFileSync(join(CORPUS_DIR, name)));
  let robotsRequests = 0;
  /** Of those, to the origins that answer 503 (retried when their backoff runs out). */
  let failingRequests = 0;
  /** Of those, answered 304: the ETag the fleet held was current. */
  let notModifiedRequests = 0;
  const servers: Server[] = [];
  let port = 0;
  for (let i = 0; i < SERVERS; i++) {
    const server = createServer((req, res) => {
      const n = Number(/^o(\d+)\./.exec(req.headers.host ?? '')?.[1] ?? 0);
      if (req.url !== '/robots.txt') return res.writeHead(404).end();
      robotsRequests++;
      const kind = n % 20;
      if (kind === 1) return res.writeHead(404).end();
      if (kind === 2) {
        failingRequests++;
        return res.writeHead(503).end();
      }
      const etag = `"f${n % corpus.length}"`;
      const send = () => {
        if (req.headers['if-none-match'] === etag) {
          notModifiedRequests++;
          return res.writeHead(304, { etag, connection: 'close' }).end();
        }
        res.writeHead(200, { 'content-type': 'text/plain', etag, connection: 'close' });
        res.end(corpus[n % corpus.length]);
      };
      if (kind === 3) setTimeout(send, 300);
      else send();
    });
    await new Promise<void>((done) => server.listen(port, `127.0.0.${i + 1}`, done));
    port = (server.address() as AddressInfo).port;
    servers.push(server);
  }
  const dir = await mkdtemp(join(tmpdir(), 'repkit-fleet-'));
  let redis = await startRedis(dir);
  const redisUrl = `redis://127.0.0.1:${redis.port}`;
  const timers: NodeJS.Timeout[] = [];
  try {
    for (const [processes, origins] of shapes) {
      await redisCommand(redis.port, 'FLUSHALL');
      const shape = `fleet ${processes} processes × ${origins.toLocaleString('en')} origins`;
      const base = { redisUrl, prefix: 'bench', port, servers: SERVERS, origins };
      /** One phase: fetches, Redis commands, CPU and RSS counted from the common start. */
      const phase = async (
        name: string,
        seed: number,
        config: Partial<FleetWorkerConfig>,
        onStart: (startAt: number) => void = () => {},
        countCommands = true,
      ): Promise<FleetWorkerReport[]> => {
        let requestsBefore = 0;
        let failingBefore = 0;
        let notModifiedBefore = 0;
        let commandsBefore = 0;
        const reports = await runWorkers(
          processes,
          (i) => ({ ...base, mode: 'pass', seed: seed + i, ...config }),
          async (at) => {
            requestsBefore = robotsRequests;
            failingBefore = failingRequests;
            notModifiedBefore = notModifiedRequests;
            if (countCommands) commandsBefore = await commandsProcessed(redis.port);
            onStart(at);
          },
        );
        const checks = reports.reduce((sum, r) => sum + r.checks, 0);
        const fetches = (robotsRequests - requestsBefore) / origins;
        record(`${shape}, ${name}: robots.txt fetches per origin`, 'repkit', fetches);
        // Retries of the 503 origins fall due whatever the store does: one per fleet with
        // Redis (the lease), one per process without it.
        const retries = (failingRequests - failingBefore) / origins;
        record(`${shape}, ${name}: … of which to the 503 origins`, 'repkit', retries);
        const renewed = (notModifiedRequests - notModifiedBefore) / origins;
        record(`${shape}, ${name}: … of which 304 (renewed, no body)`, 'repkit', renewed);
        if (countCommands) {
          const commands = (await commandsProcessed(redis.port)) - commandsBefore;
          record(`${shape}, ${name}: Redis commands per check`, 'repkit', commands / checks);
        }
        const cpu = reports.reduce((sum, r) => sum + r.cpuMicros, 0) / checks;
        record(`${shape}, ${name}: CPU µs per check`, 'repkit', cpu);
        const rss = Math.max(...reports.map((r) => r.peakRssBytes)) / 1e6;
        record(`${shape}, ${name}: peak RSS MB of a process`, 'repkit', rss);
        // Store warnings (outage, hang, back again) in the process that had the most.
        const warnings = Math.max(...reports.map((r) => r.warnings));
        record(`${shape}, ${name}: store warnings in a process`, 'repkit', warnings);
        return reports;
      };
      await phase('cold', 1, {});
      await phase('warm', 101, {});
      await phase('a day later', 151, { clockOffsetMs: 25 * 3_600_000 });
      // The hung store, in processes that have run a while (each asked about every origin
      // once first): SIGSTOP at 4 s, SIGCONT at 8 s, by the PID this bench started.
      const reports = await phase(
        'Redis stopped 4 s of 12',
        201,
        { mode: 'timed', ms: 12_000, warmUp: true },
        (startAt) => {
          const at = (ms: number, signal: NodeJS.Signals) =>
            timers.push(setTimeout(() => redis.child.kill(signal), startAt + ms - Date.now()));
          at(4_000, 'SIGSTOP');
          at(8_000, 'SIGCONT');
        },
      );
      // Checks in each second of the fleet's common clock (slices are 250 ms).
      const inSecond = (second: number, of = reports) =>
        of.reduce(
          (sum, r) => sum + r.slices.slice(second * 4, second * 4 + 4).reduce((a, b) => a + b, 0),
          0,
        );
      const perSecond = Array.from({ length: 12 }, (_, second) => inSecond(second));
      console.log(
        `${shape}, Redis stopped from 4 s to 8 s: checks each second ${perSecond.join(' ')}`,
      );
      const before = (inSecond(2) + inSecond(3)) / 2;
      const during = (inSecond(4) + inSecond(5) + inSecond(6) + inSecond(7)) / 4;
      record(`${shape}, Redis stopped: checks/s before the stop`, 'repkit', before);
      record(
        `${shape}, Redis stopped: checks/s while stopped, ÷ before`,
        'repkit',
        during / before,
      );
      // An outage: Redis killed (SIGKILL, after a SAVE) at 4 s and started again at 14 s from
      // its snapshot, as a Redis with persistence comes back. What it costs: fetches per
      // origin through it, and checks while it is away.
      const killed = await phase(
        'Redis killed 10 s of 20',
        301,
        { mode: 'timed', ms: 20_000, warmUp: true },
        (startAt) => {
          timers.push(
            setTimeout(
              () => void redisCommand(redis.port, 'SAVE').then(() => redis.child.kill('SIGKILL')),
              startAt + 4_000 - Date.now(),
            ),
            setTimeout(
              () =>
                void startRedis(dir, redis.port).then((started) => {
                  redis = started;
                }),
              startAt + 14_000 - Date.now(),
            ),
          );
        },
        false,
      );
      const perSecondKilled = Array.from({ length: 20 }, (_, s) => inSecond(s, killed));
      console.log(
        `${shape}, Redis killed from 4 s to 14 s: checks each second ${perSecondKilled.join(' ')}`,
      );
      const beforeKill = (inSecond(2, killed) + inSecond(3, killed)) / 2;
      const away = perSecondKilled.slice(5, 14).reduce((a, b) => a + b, 0) / 9;
      record(
        `${shape}, Redis killed: checks/s while it is away, ÷ before`,
        'repkit',
        away / beforeKill,
      );
    }
  } finally {
    for (const timer of timers) clearTimeout(timer);
    redis.child.kill('SIGCONT');
    redis.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
    await rm(dir, { recursive: true, force: true });
  }
}
