import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';

/** The Redis the tests use: REDIS_URL, or the one these machines run on 127.0.0.1:6379. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const prefixes: string[] = [];

/**
 * A prefix of its own for each test, so runs never see each other's keys (and never the
 * production prefix, `repkit`). `deleteTestKeys` removes what was written under them.
 */
export function testPrefix(): string {
  const prefix = `repkit-test-${randomUUID().slice(0, 8)}`;
  prefixes.push(prefix);
  return prefix;
}

/**
 * Deletes every key under the prefixes this process made, and checks none is left: call it
 * from each Redis test file's `after`.
 */
export async function deleteTestKeys(url = REDIS_URL): Promise<void> {
  const client = await rawClient(url);
  try {
    for (const prefix of prefixes.splice(0)) {
      const keys: string[] = [];
      for await (const batch of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) {
        keys.push(...(Array.isArray(batch) ? batch : [batch]));
      }
      if (keys.length > 0) await client.del(keys);
      const left = [];
      for await (const batch of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) {
        left.push(...(Array.isArray(batch) ? batch : [batch]));
      }
      if (left.length > 0) throw new Error(`keys left under ${prefix}: ${left.join(', ')}`);
    }
  } finally {
    await client.close();
  }
}

/**
 * A plain client to look inside Redis. Rejects (the test fails, never skips) when no Redis
 * answers at REDIS_URL.
 */
export async function rawClient(url = REDIS_URL): Promise<ReturnType<typeof createClient>> {
  const client = createClient({ url, socket: { connectTimeout: 2_000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `no Redis at ${url} (${(error as Error).message}): the Redis tests need one running`,
    );
  }
  return client;
}
