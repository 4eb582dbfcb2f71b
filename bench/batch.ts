/**
 * `repkit batch` measured as users run it: the built binary reading URLs on stdin. With one
 * robots.txt (against the same pipeline built on robots-parser) and with 1,000 origins served
 * on loopback, each robots.txt fetched once through the cache.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { ROOT } from './root.ts';
import { CORPUS_DIR, corpusFiles, rng, urlsFor } from './workloads.ts';

const BIN = resolve(ROOT, 'dist/cli/index.js');

/** Runs a command with `input` on stdin; resolves with its wall time and output line count. */
function run(args: string[], input: string): Promise<{ ms: number; lines: number }> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) lines++;
    });
    child.on('error', fail);
    child.on('close', () => done({ ms: performance.now() - start, lines }));
    child.stdin.end(input);
  });
}

export async function benchBatch(
  record: (metric: string, peer: string, value: number) => void,
): Promise<void> {
  // One robots.txt: a large one as crawlers meet them, the 99th percentile of the corpus's
  // robots.txt files by size (21 KB, 488 rules), 200,000 URLs built from its rules. Not the
  // largest file, an HTML page served in its place (no group applies: every check ends at
  // once), nor the largest robots.txt (31,843 rules: robots-parser takes over ten minutes).
  const robotsFiles = [...corpusFiles()]
    .filter((f) => !/^[\s\ufeff]*</.test(f.body))
    .sort((a, b) => b.bytes - a.bytes);
  const chosen = robotsFiles[Math.floor(robotsFiles.length / 100)]!;
  const urls = urlsFor(chosen.body, 200_000, 99).join('\n') + '\n';
  const file = resolve(CORPUS_DIR, chosen.name);
  const ours = await run([BIN, 'batch', '--agent', 'Googlebot', '--robots', file], urls);
  const theirs = await run([resolve(ROOT, 'bench/peer-batch.mjs'), file, 'Googlebot'], urls);
  if (ours.lines !== 200_000 || theirs.lines !== 200_000)
    throw new Error(`batch printed ${ours.lines} / ${theirs.lines} lines`);
  record(
    'batch URLs/s, one robots.txt (200,000 URLs, whole process)',
    'repkit',
    200_000 / (ours.ms / 1000),
  );
  record(
    'batch URLs/s, one robots.txt (200,000 URLs, whole process)',
    'robots-parser',
    200_000 / (theirs.ms / 1000),
  );

  // 1,000 origins on loopback (one port each), 20 URLs each, in shuffled order.
  let requests = 0;
  const servers: Server[] = [];
  for (let i = 0; i < 1000; i++) {
    const server = createServer((req, res) => {
      requests++;
      if (req.url === '/robots.txt')
        res.writeHead(200).end(`User-agent: *\nDisallow: /private${i % 7}/\n`);
      else res.writeHead(404).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    servers.push(server);
  }
  const random = rng(5);
  const many = servers.flatMap((s, i) => {
    const { port } = s.address() as { port: number };
    return Array.from(
      { length: 20 },
      (_, j) => `http://127.0.0.1:${port}/${j % 3 ? 'page' : `private${i % 7}/x`}${j}`,
    );
  });
  for (let i = many.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [many[i], many[j]] = [many[j]!, many[i]!];
  }
  const fetched = await run(
    [BIN, 'batch', '--agent', 'Bot', '--concurrency', '64'],
    many.join('\n') + '\n',
  );
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
  if (fetched.lines !== many.length)
    throw new Error(`batch printed ${fetched.lines} of ${many.length} lines`);
  record(
    `batch URLs/s, 1,000 origins fetched (${many.length} URLs, ${requests} requests)`,
    'repkit',
    many.length / (fetched.ms / 1000),
  );
}
