/**
 * `npm i repkit` as a user gets it: the packed tarball installed into an empty project. Only
 * the library's three dependencies come with it (no CLI, service, Redis or Crawlee packages),
 * and the `repkit` command still runs, its own small libraries bundled into it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { ROOT } from '../helpers/shared.ts';

const run = promisify(execFile);

test('installing the packed package brings the library dependencies only, and the CLI works', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'repkit-install-'));
  try {
    // dist/ is built by `npm test` before the suites run; pack it as npm publishes it.
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], {
      cwd: ROOT,
    });
    const tarball = join(dir, stdout.trim().split('\n').at(-1)!);
    const project = join(dir, 'project');
    await run('mkdir', [project]);
    await writeFile(join(project, 'package.json'), '{"name":"app","private":true,"type":"module"}');
    await run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: project });
    const installed = (await readdir(join(project, 'node_modules'))).filter(
      (n) => !n.startsWith('.'),
    );
    for (const absent of [
      'commander',
      'picocolors',
      'fastify',
      'redis',
      'crawlee',
      'prom-client',
      'piscina',
    ]) {
      assert.ok(!installed.includes(absent), `${absent} is not installed with the library`);
    }
    for (const present of ['undici', 'ipaddr.js', 'parse5-sax-parser', 'repkit']) {
      assert.ok(installed.includes(present), `${present} is installed`);
    }
    const bin = join(project, 'node_modules', '.bin', 'repkit');
    assert.ok(existsSync(bin));
    const version = await run(bin, ['--version'], { cwd: project });
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    const check = await run(
      bin,
      [
        'check',
        '--robots',
        join(ROOT, 'examples/robots.txt'),
        '--agent',
        'Googlebot',
        'https://example.com/drafts/x',
      ],
      { cwd: project },
    ).catch((error: { stdout: string; code: number }) => error);
    assert.match(check.stdout, /disallowed .*line 11/);
    // The library's entries load in the user's project.
    const { stdout: loaded } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const { parse } = await import('repkit'); await import('repkit/fetch'); await import('repkit/meta'); console.log(parse('User-agent: *\\nDisallow: /x').isAllowed('https://a.example/x', 'Bot'))",
      ],
      { cwd: project },
    );
    assert.equal(loaded.trim(), 'false');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
