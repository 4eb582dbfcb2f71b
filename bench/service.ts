/**
 * The HTTP service under load, as deployed: the built `repkit serve` in its own process, a
 * robots.txt site on loopback, the cache warm, and requests from this process through an
 * undici pool: single GET /v1/check, and POST /v1/check with 100 URLs. Its peer is a bare
 * fastify route in a process of its own (`bare-route.ts`), loaded the same way in the same
 * run: the service's requests/s over the route's is what repkit adds to fastify's own work.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { ROOT } from './root.ts';
import { CORPUS_DIR } from './workloads.ts';

/** A large real robots.txt (150 KB, over the 64 KiB past which files are checked on workers). */
const LARGE_FILE = 'www.smugmug.com.txt';

const SECONDS = 2;
const TURNS = 5;
const CONNECTIONS = 32;
export const BARE_ROUTE = 'fastify, bare route';

interface Load {
  path: string;
  method: 'GET' | 'POST';
  body?: string;
}

/** Requests/s of `pool` answering `next()` for SECONDS, CONNECTIONS at a time. */
async function load(pool: Pool, next: () => Load): Promise<number> {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const { path, method, body } = next();
        const response = await pool.request({
          path,
          method,
          ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
        });
        await response.body.text();
        if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode} for ${path}`);
        done++;
      }
    }),
  );
  return done / SECONDS;
}

/** A server process, once it says where it serves. */
async function started(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((done, fail) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d;
      const found = /serving on (http:\/\/\S+)/.exec(err);
      if (found) done(found[1]!);
    });
    child.on('exit', () => fail(new Error(err)));
  });
  return { child, url };
}

/**
 * The median requests/s of each server over TURNS turns, taking turns (the order swapped
 * every turn), so that a noisy moment on this shared machine slows one turn of one server.
 */
async function medianRates(
  servers: { name: string; pool: Pool; next: () => Load }[],
): Promise<Map<string, number>> {
  const rates = new Map<string, number[]>(servers.map((s) => [s.name, []]));
  for (let turn = 0; turn < TURNS; turn++) {
    const order = turn % 2 === 0 ? servers : [...servers].reverse();
    for (const s of order) rates.get(s.name)!.push(await load(s.pool, s.next));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  return new Map([...rates].map(([name, values]) => [name, median(values)]));
}

export async function benchService(
  record: (metric: string, peer: string, value: number) => void,
): Promise<void> {
  const small = 'User-agent: *\nDisallow: /private/\nAllow: /private/press/\n';
  const large = readFileSync(resolve(CORPUS_DIR, LARGE_FILE));
  // Two origins on one server: localhost serves the large file, 127.0.0.1 the small one.
  const site = createServer((req, res) => {
    if (req.url !== '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200).end(req.headers.host?.startsWith('localhost') ? large : small);
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const port = (site.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  const largeOrigin = `http://localhost:${port}`;
  const repkit = await started([
    resolve(ROOT, 'dist/cli/index.js'),
    'serve',
    '--port',
    '0',
    '--allow-private-addresses',
  ]);
  const bare = await started([fileURLToPath(new URL('./bare-route.js', import.meta.url))]);
  const repkitPool = new Pool(repkit.url, { connections: CONNECTIONS, pipelining: 1 });
  const barePool = new Pool(bare.url, { connections: CONNECTIONS, pipelining: 1 });
  try {
    // 1,000 different URLs in turn: the answers are checks of the cached file, not of a memo.
    const paths = Array.from(
      { length: 1000 },
      (_, i) => `${origin}/${i % 3 ? 'page' : 'private/doc'}${i}`,
    );
    let i = 0;
    const single = (): Load => ({
      method: 'GET',
      path: `/v1/check?agent=Googlebot&url=${encodeURIComponent(paths[i++ % paths.length]!)}`,
    });
    let j = 0;
    const singleLarge = (): Load => ({
      method: 'GET',
      path: `/v1/check?agent=Googlebot&url=${encodeURIComponent(largeOrigin + new URL(paths[j++ % paths.length]!).pathname)}`,
    });
    const body = JSON.stringify({ agent: 'Googlebot', urls: paths.slice(0, 100) });
    const batch = (): Load => ({ method: 'POST', path: '/v1/check', body });
    // Warm: the robots.txt is fetched once, the engines of both processes are hot.
    for (const pool of [repkitPool, barePool]) {
      await load(pool, single);
      await load(pool, singleLarge);
      await load(pool, batch);
    }
    const gets = await medianRates([
      { name: 'repkit', pool: repkitPool, next: single },
      { name: BARE_ROUTE, pool: barePool, next: single },
    ]);
    for (const [name, rate] of gets)
      record('service requests/s, GET /v1/check, warm cache (HTTP on loopback)', name, rate);
    const largeGets = await medianRates([
      { name: 'repkit', pool: repkitPool, next: singleLarge },
      { name: BARE_ROUTE, pool: barePool, next: single },
    ]);
    for (const [name, rate] of largeGets)
      record(`service requests/s, GET /v1/check, warm cache, a 150 KB file`, name, rate);
    const posts = await medianRates([
      { name: 'repkit', pool: repkitPool, next: batch },
      { name: BARE_ROUTE, pool: barePool, next: batch },
    ]);
    record(
      'service checks/s, POST /v1/check × 100 URLs, warm cache',
      'repkit',
      posts.get('repkit')! * 100,
    );
    record(
      'service requests/s, POST /v1/check × 100 URLs, warm cache',
      'repkit',
      posts.get('repkit')!,
    );
    record(
      'service requests/s, POST /v1/check × 100 URLs, warm cache',
      BARE_ROUTE,
      posts.get(BARE_ROUTE)!,
    );
  } finally {
    await repkitPool.close();
    await barePool.close();
    repkit.child.kill('SIGTERM');
    bare.child.kill('SIGTERM');
    site.close();
  }
}
