/**
 * One crawler process for the fleet politeness tests: a RobotsClient on a shared RedisStore
 * runs the steps it is given (`turn` or `backOff` for a URL) and prints their answers as JSON.
 * argv[2]: JSON { redisUrl, prefix, steps: [{ kind: 'turn' | 'backOff', url, retryAfter? }] }.
 */
import { RedisStore } from '../../src/cache/redis-entry.ts';
import { RobotsClient } from '../../src/fetch/index.ts';

const config = JSON.parse(process.argv[2]!) as {
  redisUrl: string;
  prefix: string;
  steps: { kind: 'turn' | 'backOff'; url: string; retryAfter?: string }[];
};
const store = new RedisStore({ url: config.redisUrl, prefix: config.prefix });
await store.ready();
const client = new RobotsClient({ userAgent: `FleetBot/1.0 (worker ${process.pid})`, store });
const answers: unknown[] = [];
for (const step of config.steps) {
  answers.push(
    step.kind === 'turn'
      ? await client.turn(step.url)
      : await client.backOff(step.url, step.retryAfter),
  );
}
process.stdout.write(JSON.stringify(answers) + '\n');
await client.close();
await store.close();
