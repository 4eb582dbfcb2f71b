/**
 * The example crawler in examples/crawlee runs as a user would run it (tsx, importing
 * `repkit/crawlee` by name) against a local site.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { httpServer } from '../helpers/servers.ts';
import { ROOT } from '../helpers/shared.ts';
import { childEnv } from '../helpers/child-env.ts';

const run = promisify(execFile);

test('examples/crawlee/crawler.ts crawls what robots.txt allows and reports what it skips', async () => {
  const site = await httpServer((req, res) => {
    if (req.url === '/robots.txt') {
      return void res.writeHead(200).end('User-agent: ExampleBot\nDisallow: /private/\n');
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      req.url === '/'
        ? '<title>Home</title><a href="/about">a</a><a href="/private/x">p</a>'
        : `<title>${req.url}</title>`,
    );
  });
  const storage = await mkdtemp(join(tmpdir(), 'repkit-crawlee-'));
  try {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', resolve(ROOT, 'examples/crawlee/crawler.ts'), `${site.origin}/`],
      {
        cwd: ROOT,
        env: childEnv({ CRAWLEE_STORAGE_DIR: storage, CRAWLEE_LOG_LEVEL: 'OFF' }),
      },
    );
    const lines = stdout.trim().split('\n').sort();
    assert.deepEqual(lines, [
      `crawled  ${site.origin}/  Home`,
      `crawled  ${site.origin}/about  /about`,
      `skipped  ${site.origin}/private/x (robotsTxt)`,
    ]);
    assert.ok(site.requests.every((r) => !r.path.startsWith('/private/')));
  } finally {
    await site.close();
    await rm(storage, { recursive: true, force: true });
  }
});
