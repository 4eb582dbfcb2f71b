import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';

/** The Redis the tests use: REDIS_URL, or the one these machines run on 127.0.0.1:6379. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A prefix of its own for each test, so runs never see each other's keys. */
export function testPrefix(): string {
  return `repkit-test-${randomUUID().slice(0, 8)}`;
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
