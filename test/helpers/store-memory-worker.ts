/**
 * Run as its own process (with --expose-gc) by the MemoryStore test: stores COUNT entries
 * whose bodies are the corpus's real files, then prints what the store counts as held and
 * what the process's memory grew by, as JSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryStore } from '../../src/cache/index.ts';
import { SHARED } from './shared.ts';

const count = Number(process.argv[2]);
const dir = join(SHARED, 'corpus/robots');
const bodies = readdirSync(dir)
  .sort()
  .slice(0, 500)
  .map((name) => readFileSync(join(dir, name)).toString('base64'));
const gc = (globalThis as { gc?: () => void }).gc!;
const used = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
const store = new MemoryStore();
gc();
const before = used();
for (let i = 0; i < count; i++) {
  const robotsUrl = `https://o${i}.test/robots.txt`;
  await store.set(
    robotsUrl,
    {
      v: 1,
      robotsUrl,
      outcome: 'ok',
      status: 200,
      body: bodies[i % bodies.length]!,
      headers: { 'content-type': 'text/plain' },
      chain: [robotsUrl],
      fetchedAt: Date.now(),
      expiresAt: Date.now() + 86_400_000,
    },
    86_400_000,
  );
}
// zlib's handles are let go by finalizers: a second collection, after they ran, counts true.
gc();
await new Promise((done) => setTimeout(done, 100));
gc();
console.log(JSON.stringify({ ...store.stats, growth: used() - before }));
