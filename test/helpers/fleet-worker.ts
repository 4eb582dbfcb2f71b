/**
 * One crawler process of a fleet, for the Redis fleet tests: checks the URLs it is given
 * through a RobotsClient on a shared RedisStore and prints the verdicts as JSON.
 * argv[2]: JSON { redisUrl or cluster, prefix, urls, timeoutMs, leaseTtlMs, coldStart }. With
 * `coldStart` it checks at once, without waiting for Redis first, as a process just started.
 */
import { RedisStore } from '../../src/cache/redis-entry.ts';
import { RobotsClient } from '../../src/fetch/index.ts';

const config = JSON.parse(process.argv[2]!) as {
  /** One Redis server, or the nodes of a Redis Cluster (`cluster`). */
  redisUrl?: string;
  cluster?: string[];
  prefix: string;
  urls: string[];
  timeoutMs?: number;
  leaseTtlMs?: number;
  coldStart?: boolean;
};
const store = new RedisStore({
  ...(config.cluster
    ? { cluster: { rootNodes: config.cluster.map((url) => ({ url })) } }
    : { url: config.redisUrl }),
  prefix: config.prefix,
  onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
});
if (!config.coldStart) await store.ready();
const client = new RobotsClient({
  userAgent: `FleetBot/1.0 (worker ${process.pid})`,
  store,
  timeoutMs: config.timeoutMs ?? 10_000,
  fleet: { leaseTtlMs: config.leaseTtlMs ?? 10_000, pollMs: 20 },
});
process.stdout.write('ready\n');
const verdicts = await Promise.all(config.urls.map((url) => client.check(url)));
process.stdout.write(
  JSON.stringify(
    verdicts.map((v) => ({ url: v.url, allowed: v.allowed, source: v.source, line: v.line })),
  ) + '\n',
);
await client.close();
await store.close();
