/**
 * One crawler process of the fleet bench (`node .bench/bench/fleet-worker.js CONFIG`): a
 * RobotsClient in its default configuration on a shared RedisStore, asking about origins
 * `oN.fleet.test` (resolved to the bench's loopback servers). Prints one JSON line of what
 * it cost: checks, CPU, peak RSS, and checks per 250 ms slice (for the timed run).
 */
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
  /** When to start (ms since the epoch), so that a fleet's slices share one clock. */
  startAt: number;
}

export interface FleetWorkerReport {
  checks: number;
  disallowed: number;
  cpuMicros: number;
  wallMs: number;
  peakRssBytes: number;
  /** Checks finished in each 250 ms slice of the run, from `startAt`. */
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
const client = new RobotsClient({ userAgent: 'FleetBench/1.0', store, lookup });

const order = Array.from({ length: config.origins }, (_, i) => i);
const random = rng(config.seed);
for (let i = order.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [order[i], order[j]] = [order[j]!, order[i]!];
}

await new Promise((done) => setTimeout(done, Math.max(0, config.startAt - Date.now())));
const start = performance.now();
const cpuStart = process.cpuUsage();
const slices: number[] = [];
let checks = 0;
let disallowed = 0;
let next = 0;
const end = start + (config.ms ?? 0);
const more = (): boolean =>
  config.mode === 'pass' ? next < order.length : performance.now() < end;
// 64 checks in flight, as a crawler with a connection pool of that size would have.
await Promise.all(
  Array.from({ length: 64 }, async () => {
    while (more()) {
      const n = order[next++ % order.length]!;
      const verdict = await client.check(`http://o${n}.fleet.test:${config.port}/page/${next}`);
      if (!verdict.allowed) disallowed++;
      checks++;
      const slice = Math.floor((Date.now() - config.startAt) / 250);
      slices[slice] = (slices[slice] ?? 0) + 1;
    }
  }),
);
const cpu = process.cpuUsage(cpuStart);
const report: FleetWorkerReport = {
  checks,
  disallowed,
  cpuMicros: cpu.user + cpu.system,
  wallMs: performance.now() - start,
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
  slices: Array.from(slices, (n) => n ?? 0),
  warnings,
};
process.stdout.write(JSON.stringify(report) + '\n');
await client.close();
await store.close();
