/**
 * What `npm publish` would send, from `npm publish --dry-run` (dist/ is built by `npm test`
 * before the suites run): no manifest npm has to correct, no stray file (the rendered
 * reference, sources and tests stay home), source maps that carry their sources, and the size
 * README.md states.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { childEnv } from '../helpers/child-env.ts';
import { ROOT } from '../helpers/shared.ts';

const run = promisify(execFile);

interface DryRun {
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

/** What may ship: the build, the docs' pages, the examples, and the package's own files. */
const SHIPPED = [
  /^dist\//,
  /^docs\/([a-z]+\/)?[\w.-]+\.md$/,
  /^examples\//,
  /^reports\/[\w.-]+\.sql$/,
  /^(README|CHANGELOG)\.md$/,
  /^LICENSE$/,
  /^package\.json$/,
];

test('npm publish --dry-run: a clean manifest, no stray file, maps with their sources, the size README.md states', async () => {
  const { stdout, stderr } = await run(
    'npm',
    ['publish', '--dry-run', '--ignore-scripts', '--json'],
    {
      cwd: ROOT,
      env: childEnv(),
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  // npm rewrites a manifest it finds wrong ("auto-corrected", "was invalid and removed").
  assert.doesNotMatch(stderr, /auto-corrected|invalid|removed|errors corrected/i, stderr);
  const parsed = JSON.parse(stdout) as DryRun | Record<string, DryRun>;
  const result = ('files' in parsed ? parsed : parsed['repkit']) as DryRun;
  const paths = result.files.map((f) => f.path);

  const stray = paths.filter((p) => !SHIPPED.some((pattern) => pattern.test(p)));
  assert.deepEqual(stray, []);
  for (const needed of [
    'dist/cli/index.js',
    'dist/core/index.d.ts',
    'docs/guide/core.md',
    'README.md',
    'LICENSE',
  ]) {
    assert.ok(paths.includes(needed), `${needed} is published`);
  }
  assert.ok(!paths.some((p) => p.startsWith('docs/api/')), 'the rendered reference is not');

  // Every map a shipped file names is shipped, and carries the sources it maps.
  const shipped = new Set(paths);
  let maps = 0;
  for (const path of paths.filter((p) => p.endsWith('.js'))) {
    const named = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(ROOT, path), 'utf8'));
    if (!named) continue;
    const map = join(path, '..', named[1]!);
    assert.ok(shipped.has(map), `${path} names ${map}, which is published`);
    const { sources, sourcesContent } = JSON.parse(readFileSync(join(ROOT, map), 'utf8')) as {
      sources: string[];
      sourcesContent?: (string | null)[];
    };
    assert.equal(sourcesContent?.length, sources.length, `${map} carries its sources`);
    assert.ok(
      sourcesContent.every((s) => typeof s === 'string' && s.length > 0),
      map,
    );
    maps++;
  }
  assert.ok(maps > 100, `${maps} maps`);
  for (const map of paths.filter((p) => p.endsWith('.map'))) {
    assert.ok(shipped.has(map.slice(0, -'.map'.length)), `${map} maps a published file`);
  }

  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const stated = /The published package is ([\d.]+) kB packed, ([\d.]+) MB unpacked/.exec(readme);
  assert.ok(stated, 'README.md states the package size');
  const near = (said: number, actual: number) => Math.abs(said - actual) / actual < 0.2;
  assert.ok(near(Number(stated[1]) * 1000, result.size), `packed: ${result.size} bytes`);
  assert.ok(near(Number(stated[2]) * 1e6, result.unpackedSize), `unpacked: ${result.unpackedSize}`);
});
