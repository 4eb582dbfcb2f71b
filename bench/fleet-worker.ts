/**
 * One crawler process of the fleet bench (`node .bench/bench/fleet-worker.js CONFIG`): a
 * RobotsClient in its default configuration on a shared RedisStore, asking about origins
 * `oN.fleet.test` (resolved to the bench's loopback servers). It says `ready` on stdout when
 * it is connected (and, with `warmUp`, has asked about every origin once), starts at the
 * time the bench then writes on its stdin, so that a fleet's clocks agree, and prints one
 * JSON line of what the run cost: checks, CPU, peak RSS, checks per 250 ms slice, store
 * warnings.
 */
import { createInterface } from 'node:readline';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { RedisStore } from '../src/cache/redis-entry.ts';
import { RobotsClient } from '../src/fetch/index.ts';
import { rng } from './workloads.ts';

export interface FleetWorkerConfig {
  redisUrl: string;
  prefix: string;
  port: number;
  servers: number;
  origins: number;
  seed: number;
  /** `pass`: each origin once, in shuffled order. `timed`: round and round for `ms`. */
  mode: 'pass' | 'timed';
  ms?: number;
  /** Ask about every origin once before saying `ready`, as a process that has run a while. */
  warmUp?: boolean;
  /** The client's clock this far ahead of the machine's: the store's copies are stale to it. */
  clockOffsetMs?: number;
}

export interface FleetWorkerReport {
  checks: number;
  cpuMicros: number;
  peakRssBytes: number;
  /** Checks finished in each 250 ms slice of the run, from the start the bench gave. */
  slices: number[];
  warnings: number;
}

const config = JSON.parse(process.argv[2]!) as FleetWorkerConfig;

/** `oN.fleet.test` lives on loopback address N mod `servers` (one port on each). */
const lookup = ((host: string, options: { all?: boolean }, callback: (...a: unknown[]) => void) => {
  const n = Number(/^o(\d+)\./.exec(host)?.[1] ?? 0);
  const answer: LookupAddress = { address: `127.0.0.${(n % config.servers) + 1}`, family: 4 };
  if (options?.all) callback(null, [answer]);
  else callback(null, answer.address, answer.family);
}) as unknown as LookupFunction;

let warnings = 0;
const store = new RedisStore({
  url: config.redisUrl,
  prefix: config.prefix,
  onWarning: () => warnings++,
});
await store.ready();
const offset = config.clockOffsetMs;
const client = new RobotsClient({
  userAgent: 'FleetBench/1.0',
  store,
  lookup,
  ...(offset ? { now: () => Date.now() + offset } : {}),
});

const order = Array.from({ length: config.origins }, (_, i) => i);
const random = rng(config.seed);
for (let i = order.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [order[i], order[j]] = [order[j]!, order[i]!];
}

let checks = 0;
const slices: number[] = [];
/** Asks with 64 checks in flight, as a crawler with a pool of that size; URLs never asked before. */
async function run(more: (next: number) => boolean, startAt: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (more(next)) {
        const n = order[next++ % order.length]!;
        const page = `http://o${n}.fleet.test:${config.port}/page/${startAt}/${next}`;
        await client.check(page);
        checks++;
        // A check answered from memory settles in microtasks alone: without a turn of the
        // event loop, as a crawler's page fetch gives, 64 such loops would starve every timer
        // and socket (the store's probe, its reconnection, Redis's replies) until the run ends.
        await new Promise((done) => setImmediate(done));
        const slice = Math.floor((Date.now() - startAt) / 250);
        slices[slice] = (slices[slice] ?? 0) + 1;
      }
    }),
  );
}

if (config.warmUp) await run((next) => next < order.length, Date.now());
checks = slices.length = 0;
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const startAt = Number((await lines.next()).value);
await new Promise((done) => setTimeout(done, Math.max(0, startAt - Date.now())));
const start = performance.now();
const cpuStart = process.cpuUsage();
await run(
  config.mode === 'pass'
    ? (next) => next < order.length
    : () => performance.now() < start + config.ms!,
  startAt,
);
const cpu = process.cpuUsage(cpuStart);
const report: FleetWorkerReport = {
  checks,
  cpuMicros: cpu.user + cpu.system,
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
  slices: Array.from(slices, (n) => n ?? 0),
  warnings,
};
process.stdout.write(JSON.stringify(report) + '\n');
await client.close();
await store.close();
