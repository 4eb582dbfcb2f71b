/**
 * The scan rows: `repkit scan` (the built binary) over gzip'd WARC files made from the
 * corpus in Common Crawl's record layout (8 files of 2,500 response records, one gzip member
 * each), with 1 and 2 worker threads in one process and with 2 processes sharing the scan
 * through the bench's own redis-server. Each run's captures per second (wall clock) and per
 * CPU-second (the process's user + system time, from bash's `times`), beside what warcio
 * alone reads per second on one thread: the floor no scan of these files goes under.
 * `node .bench/bench/scan-only.js` runs them alone.
 */
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WARCParser } from 'warcio';
import { warcRecord } from '../test/helpers/warc.ts';
import { startRedis } from './fleet.ts';
import { ROOT } from './root.ts';
import { CORPUS_DIR } from './workloads.ts';

type Record = (metric: string, peer: string, value: number) => void;

const FILES = 8;
const RECORDS = 2_500;
const BIN = resolve(ROOT, 'dist/cli/index.js');

/** The bench's WARC files: the corpus round and round, each capture a host of its own. */
async function warcFiles(dir: string): Promise<string[]> {
  const names = (await readdir(CORPUS_DIR)).sort();
  const bodies = await Promise.all(names.map((n) => readFile(join(CORPUS_DIR, n))));
  const paths: string[] = [];
  for (let f = 0; f < FILES; f++) {
    const records: Uint8Array[] = [];
    for (let r = 0; r < RECORDS; r++) {
      const i = (f * RECORDS + r) % names.length;
      const host = `${names[i]!.replace(/\.txt$/, '')}.x${f * RECORDS + r}`;
      records.push(await warcRecord(host, '200 OK', bodies[i]!));
    }
    const path = join(dir, `crawl-${f}.warc.gz`);
    await writeFile(path, Buffer.concat(records));
    paths.push(path);
  }
  return paths;
}

/** Response records per second warcio reads (bodies included), one file after another. */
async function warcioAlone(paths: readonly string[]): Promise<number> {
  const start = performance.now();
  let records = 0;
  for (const path of paths) {
    for await (const record of new WARCParser(createReadStream(path))) {
      await record.readFully();
      records++;
    }
  }
  return records / ((performance.now() - start) / 1000);
}

/** Runs `repkit scan` with `args` (through bash, for `times`): wall ms and CPU ms. */
function timedScan(args: string[]): Promise<{ wallMs: number; cpuMs: number; stdout: string }> {
  const command = `${[process.execPath, BIN, 'scan', ...args].map((a) => `'${a}'`).join(' ')} > "$OUT_FILE"; status=$?; times; exit $status`;
  return new Promise((done, fail) => {
    const start = performance.now();
    const out = join(tmpdir(), `repkit-bench-scan-${process.pid}-${Math.random()}.txt`);
    const child = spawn('bash', ['-c', command], { env: { ...process.env, OUT_FILE: out } });
    let times = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (times += c));
    child.stderr.resume();
    child.on('close', async (code) => {
      const wallMs = performance.now() - start;
      const stdout = await readFile(out, 'utf8').catch(() => '');
      await rm(out, { force: true });
      if (code !== 0) return fail(new Error(`repkit scan ${args.join(' ')}: exit ${code}`));
      // `times`: the shell's own line, then its children's: "0m1.234s 0m0.567s".
      const children = times.trim().split('\n').at(-1)!;
      const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map(
        (m) => Number(m[1]) * 60 + Number(m[2]),
      );
      done({ wallMs, cpuMs: (seconds[0]! + seconds[1]!) * 1000, stdout });
    });
  });
}

export async function benchScan(record: Record): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'repkit-bench-scan-'));
  const redis = await startRedis(dir);
  try {
    const paths = await warcFiles(dir);
    const captures = FILES * RECORDS;
    const metric = (label: string) => `scan captures/s (${label})`;
    record(metric('1 process, 1 worker'), 'warcio reading only', await warcioAlone(paths));
    const runs: [string, (out: string) => string[][]][] = [
      ['1 process, 1 worker', (out) => [[...paths, '--workers', '1', '--out', out]]],
      ['1 process, 2 workers', (out) => [[...paths, '--workers', '2', '--out', out]]],
      [
        '2 processes, 1 worker each',
        (out) => {
          const shared = ['--redis-url', `redis://127.0.0.1:${redis.port}`, '--workers', '1'];
          const name = `bench-${Date.now()}`;
          return [
            [...paths, ...shared, '--scan-name', name, '--out', `${out}-a`],
            [...shared, '--scan-name', name, '--out', `${out}-b`],
          ];
        },
      ],
    ];
    for (const [label, argsOf] of runs) {
      const out = join(dir, label.replaceAll(/\W+/g, '-'));
      const start = performance.now();
      const results = await Promise.all(argsOf(out).map((args) => timedScan(args)));
      const wallMs = performance.now() - start;
      const counted = results.reduce(
        (sum, r) => sum + Number(/^(\d+) captures/.exec(r.stdout)?.[1] ?? 0),
        0,
      );
      if (counted !== captures)
        throw new Error(`scan ${label}: ${counted} captures, not ${captures}`);
      const cpuMs = results.reduce((sum, r) => sum + r.cpuMs, 0);
      record(metric(label), 'repkit', captures / (wallMs / 1000));
      record(`scan captures per CPU-second (${label})`, 'repkit', captures / (cpuMs / 1000));
    }
  } finally {
    redis.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}
