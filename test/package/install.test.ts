/**
 * `npm i repkit` as a user gets it: the packed tarball installed into an empty project. Only
 * the library's three dependencies come with it (no CLI, service, Redis or Crawlee packages),
 * and the `repkit` command still runs, its own small libraries bundled into it.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { ROOT } from '../helpers/shared.ts';
import { childEnv } from '../helpers/child-env.ts';

const run = promisify(execFile);

/** The service's optional peers (not redis), at the ranges package.json asks for. */
const SERVICE_PACKAGES = (() => {
  const peers = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
    }
  ).peerDependencies;
  return [
    'fastify',
    '@fastify/swagger',
    '@fastify/helmet',
    '@fastify/rate-limit',
    'prom-client',
    'piscina',
  ].map((name) => `${name}@${peers[name]}`);
})();

/** Starts `repkit serve`, stops it once it listens (or lets it fail), and reports. */
function serveOnce(
  bin: string,
  cwd: string,
  args: string[],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(bin, ['serve', ...args], {
      cwd,
      env: childEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      if (/serving on/.test(stderr)) child.kill('SIGTERM');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stderr });
    });
  });
}

test('installing the packed package brings the library dependencies only, and the CLI works', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'repkit-install-'));
  try {
    // dist/ is built by `npm test` before the suites run; pack it as npm publishes it.
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], {
      cwd: ROOT,
    });
    const tarball = join(dir, stdout.trim().split('\n').at(-1)!);
    // No install-time script in the published manifest: npm warns about each in every
    // consumer's install (dist/ is built by `prepack`, before packing, instead).
    const manifest = await run('tar', ['-xOzf', tarball, 'package/package.json']);
    const scripts = Object.keys(
      (JSON.parse(manifest.stdout) as { scripts?: Record<string, string> }).scripts ?? {},
    );
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) {
      assert.ok(!scripts.includes(hook), `the published manifest has no ${hook} script`);
    }
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
    // CommonJS: require() loads the entries (Node 20.19 and later load ES modules so), and an
    // entry that cannot be required says to import() it.
    const { stdout: required } = await run(
      process.execPath,
      [
        '--input-type=commonjs',
        '-e',
        "const { parse } = require('repkit'); const { RobotsClient } = require('repkit/fetch'); console.log(typeof parse, typeof RobotsClient); try { require('repkit/crawlee') } catch (e) { console.log(e.message) }",
      ],
      { cwd: project },
    );
    assert.match(required, /^function function\n.*Use import\(\) instead/);
    // Types under TypeScript's old `node10` resolution (typesVersions), as in the new one.
    await writeFile(
      join(project, 'node10.ts'),
      "import { parse } from 'repkit';\nimport { RobotsClient } from 'repkit/fetch';\nimport { robotsFetch } from 'repkit/guards';\nimport { crawlDecision } from 'repkit/meta';\nexport const used = [parse, RobotsClient, robotsFetch, crawlDecision];\n",
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    for (const resolution of ['node10', 'nodenext']) {
      const typed = await run(
        process.execPath,
        [
          tsc,
          '--noEmit',
          '--skipLibCheck',
          '--moduleResolution',
          resolution,
          '--module',
          resolution === 'node10' ? 'commonjs' : 'nodenext',
          'node10.ts',
        ],
        { cwd: project },
      ).catch((error: { stdout: string }) => error);
      assert.equal(typed.stdout, '', `${resolution}: ${typed.stdout}`);
    }
    // The entries of optional packages say what to install, and the serve command does not
    // ask for redis while its cache is in memory.
    for (const [entry, peer] of [
      ['repkit/cache/redis', 'redis'],
      ['repkit/crawlee', 'crawlee'],
    ] as const) {
      const { stdout: said } = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `try { await import('${entry}'); console.log('loaded') } catch (e) { console.log(e.code, e.message) }`,
        ],
        { cwd: project },
      );
      assert.equal(
        said.trim(),
        `missing-peer ${entry} needs the "${peer}" package, which is not installed: npm i ${peer}`,
      );
    }
    // So does `repkit mcp` without the MCP SDK.
    const mcp = await run(bin, ['mcp'], { cwd: project }).catch(
      (error: { stderr: string; code: number }) => error,
    );
    assert.equal((mcp as { code?: number }).code, 2);
    assert.match(
      (mcp as { stderr: string }).stderr,
      /repkit mcp needs the "@modelcontextprotocol\/sdk" package, which is not installed: npm i @modelcontextprotocol\/sdk/,
    );
    // And `repkit scan` without DuckDB (its database and Parquet writer).
    const scanned = await run(
      bin,
      ['scan', join(ROOT, 'examples/robots.txt'), '--out', join(project, 'scan')],
      {
        cwd: project,
      },
    ).catch((error: { stderr: string; code: number }) => error);
    assert.equal((scanned as { code?: number }).code, 2);
    assert.match(
      (scanned as { stderr: string }).stderr,
      /repkit scan \(its database\) needs the "@duckdb\/node-api" package, which is not installed: npm i @duckdb\/node-api/,
    );
    await run('npm', ['install', '--no-audit', '--no-fund', ...SERVICE_PACKAGES], {
      cwd: project,
    });
    const served = await serveOnce(bin, project, ['--port', '0']);
    assert.match(served.stderr, /serving on http:\/\/127\.0\.0\.1:\d+ \(cache: in memory\)/);
    const withRedis = await serveOnce(bin, project, ['--redis-url', 'redis://127.0.0.1:6379']);
    assert.equal(withRedis.code, 2);
    assert.match(
      withRedis.stderr,
      /needs the "redis" package, which is not installed: npm i redis/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
