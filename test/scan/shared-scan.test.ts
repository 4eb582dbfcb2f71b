/**
 * One scan shared by several processes through a Redis Cluster the test starts: the real
 * binary, inputs added once whoever adds them, a process killed (SIGKILL, by its PID) in the
 * middle of an input, that input taken over by another and read whole, the parts merged:
 * every input counted once, none lost. The input killed in is a FIFO the test feeds, so the
 * process is in the middle of it when killed, however fast or loaded the machine.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { BIN, runCli } from '../helpers/cli.ts';
import { childEnv } from '../helpers/child-env.ts';
import { startCluster, type LocalCluster } from '../helpers/redis-cluster.ts';
import { corpusRecords } from '../helpers/warc.ts';
import { duckRows } from '../helpers/duckdb.ts';

let dir: string;
let cluster: LocalCluster | undefined;
const children: ChildProcess[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'repkit-shared-scan-'));
  cluster = await startCluster();
});

after(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await cluster?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** How long a process may take to say something or exit: far above a loaded machine's. */
const LIMIT_MS = 120_000;

/** The built binary running `args`; its stderr kept line by line. */
function start(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { env: childEnv({ NO_COLOR: '1' }) });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let over = false;
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.once('close', (code) => {
      over = true;
      done({ code, stdout, stderr });
    }),
  );
  /** Rejects, with what it printed, once the process has ended. */
  const running = async (): Promise<void> => {
    if (over) throw new Error(`repkit ${args.join(' ')} ended: ${stderr.slice(-2000)}`);
  };
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  void exited.then(() => clearTimeout(timer));
  /** Resolves once stderr holds a line matching `pattern`; rejects if the process ends first. */
  const said = async (pattern: RegExp): Promise<void> => {
    while (!stderr.split('\n').some((line) => pattern.test(line))) {
      if (over) throw new Error(`exited without saying ${pattern}: ${stderr.slice(-2000)}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  };
  return { child, exited, said, running };
}

const query = duckRows;

/**
 * Opens the FIFO `path` for writing once `reader` has opened it to read: never blocking on
 * a reader that is not coming (a process that ended, or the time limit), so no test hangs.
 */
async function openFeed(path: string, reader: () => Promise<void>): Promise<FileHandle> {
  const start = Date.now();
  for (;;) {
    try {
      // Without a reader, a non-blocking open fails at once (ENXIO) instead of waiting.
      const probe = await open(path, constants.O_WRONLY | constants.O_NONBLOCK);
      const feed = await open(path, 'w'); // a reader is there: this one does not wait
      await probe.close();
      return feed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    }
    await reader();
    if (Date.now() - start > LIMIT_MS) throw new Error(`no process opened ${path} to read`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

test('several processes share a scan through Redis: one killed mid-input, its input taken over, every input counted once', async () => {
  const big = join(dir, 'big.warc.gz');
  execFileSync('mkfifo', [big]);
  const bigRecords = await corpusRecords(1_000);
  const smalls = [];
  for (let i = 0; i < 3; i++) {
    const path = join(dir, `small-${i}.warc.gz`);
    await writeFile(path, Buffer.concat(await corpusRecords(200, 1_000 + i * 200)));
    smalls.push(path);
  }
  const shared = [
    ...['--redis-url', cluster!.urls.join(','), '--scan-name', 'shared-test'],
    ...['--claim-after', '1500', '--agents', 'GPTBot,Googlebot'],
  ];
  // A adds the inputs and, with one reader, takes the first: the FIFO, fed 600 records.
  const a = start(['scan', big, ...smalls, ...shared, '--workers', '1', '--out', join(dir, 'a')]);
  const feed = await openFeed(big, a.running);
  await feed.write(Buffer.concat(bigRecords.slice(0, 600)));
  await a.said(/^scan: 0\/1 inputs, [1-9]/);
  a.child.kill('SIGKILL');
  assert.equal((await a.exited).code, null);
  await feed.close().catch(() => {});
  // B and C come with no inputs of their own: they take the rest, and one takes A's over.
  const b = start(['scan', ...shared, '--workers', '2', '--out', join(dir, 'b')]);
  const c = start(['scan', ...shared, '--workers', '2', '--out', join(dir, 'c')]);
  const whole = await openFeed(big, async () => {
    await b.running();
    await c.running();
  });
  await whole.write(Buffer.concat(bigRecords));
  await whole.close();
  const ended = await Promise.all([b.exited, c.exited]);
  for (const run of ended) assert.equal(run.code, 0, run.stderr);
  const said = ended.map((run) => run.stdout).join('');
  assert.equal(said.match(/\(1 taken over from a stopped process\)/g)?.length, 1, said);
  // The parts merged: each input once, with all its captures, none twice.
  const all = join(dir, 'all');
  const merged = await runCli(['scan', '--merge', join(dir, 'b'), join(dir, 'c'), '--out', all]);
  assert.equal(merged.code, 0, merged.stderr);
  assert.match(merged.stdout, /^4 inputs merged from 2 parts; /);
  const counts = await query(
    `SELECT input, count(*)::INTEGER AS captures FROM read_parquet('${all}/captures.parquet') GROUP BY input ORDER BY input`,
  );
  assert.deepEqual(counts, [
    { input: big, captures: 1_000 },
    ...smalls.map((input) => ({ input, captures: 200 })),
  ]);
  const [agents] = await query(
    `SELECT count(*)::INTEGER AS rows FROM read_parquet('${all}/agents.parquet')`,
  );
  assert.equal(agents!['rows'], 2 * 1_600);
  // Merging the same parts again adds nothing: what is held is left out.
  const again = await runCli(['scan', '--merge', join(dir, 'b'), join(dir, 'c'), '--out', all]);
  assert.match(again.stdout, /^0 inputs merged from 2 parts \(4 already held, left out\)/);
});
