/**
 * The HTTP service under load, as deployed: the built `repkit serve` in its own process, a
 * robots.txt site on loopback, the cache warm, and requests from this process through an
 * undici pool: single GET /v1/check, and POST /v1/check with 100 URLs.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { Pool } from 'undici';
import { ROOT } from './root.ts';

const SECONDS = 4;
const CONNECTIONS = 32;

async function load(
  pool: Pool,
  request: () => { path: string; method: 'GET' | 'POST'; body?: string },
): Promise<number> {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const { path, method, body } = request();
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

export async function benchService(
  record: (metric: string, peer: string, value: number) => void,
): Promise<void> {
  const site = createServer((req, res) =>
    res
      .writeHead(req.url === '/robots.txt' ? 200 : 404)
      .end('User-agent: *\nDisallow: /private/\nAllow: /private/press/\n'),
  );
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  const child = spawn(
    process.execPath,
    [resolve(ROOT, 'dist/cli/index.js'), 'serve', '--port', '0', '--allow-private-addresses'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise<string>((done, fail) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d;
      const found = /serving on (http:\/\/\S+)/.exec(err);
      if (found) done(found[1]!);
    });
    child.on('exit', () => fail(new Error(err)));
  });
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 });
  try {
    const paths = Array.from(
      { length: 1000 },
      (_, i) => `${origin}/${i % 3 ? 'page' : 'private/doc'}${i}`,
    );
    let i = 0;
    const single = () => ({
      method: 'GET' as const,
      path: `/v1/check?agent=Googlebot&url=${encodeURIComponent(paths[i++ % paths.length]!)}`,
    });
    await load(pool, single); // warm: the robots.txt is fetched once, the JIT is hot
    record(
      'service checks/s, GET /v1/check, warm cache (HTTP on loopback)',
      'repkit',
      await load(pool, single),
    );
    const body = JSON.stringify({ agent: 'Googlebot', urls: paths.slice(0, 100) });
    const batch = () => ({ method: 'POST' as const, path: '/v1/check', body });
    record(
      'service checks/s, POST /v1/check × 100 URLs, warm cache',
      'repkit',
      (await load(pool, batch)) * 100,
    );
  } finally {
    await pool.close();
    child.kill('SIGTERM');
    site.close();
  }
}
