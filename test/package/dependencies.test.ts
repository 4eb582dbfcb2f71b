/**
 * A light install: `npm i repkit` brings the core (no dependencies), the fetch client, page
 * rules and the command line; the service's, Redis's and Crawlee's packages are optional peers, loaded
 * only by `repkit serve`, `repkit/cache/redis` and `repkit/crawlee`. Checked on the built files' imports.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/shared.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  files: string[];
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.js') ? [path] : [];
  });
}

/** Bare package names a built file imports statically (`import ... from 'x'`). */
function staticImports(path: string): string[] {
  const source = readFileSync(path, 'utf8');
  const names = [...source.matchAll(/^import\s[^;]*?from\s+'([^'.][^']*)'/gm)].map((m) => m[1]!);
  return names
    .filter((name) => !name.startsWith('node:'))
    .map((name) =>
      name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!,
    );
}

test('the service, Redis, Crawlee and MCP packages are optional peers, not dependencies', () => {
  for (const name of [
    'fastify',
    '@fastify/swagger',
    'prom-client',
    'piscina',
    'redis',
    'crawlee',
    '@modelcontextprotocol/sdk',
    'zod',
  ]) {
    assert.equal(pkg.dependencies[name], undefined, `${name} is not installed with the library`);
    assert.ok(pkg.peerDependencies[name], `${name} is a peer`);
    assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, `${name} is optional`);
  }
  assert.ok(pkg.files.includes('LICENSE'));
});

test('the core imports nothing; fetch, meta, cache and the CLI only dependencies; the rest only peers', () => {
  const dist = join(ROOT, 'dist');
  for (const path of files(dist)) {
    const where = relative(dist, path);
    const imports = staticImports(path);
    if (where.startsWith('core/')) {
      assert.deepEqual(imports, [], `${where} has no dependencies`);
    } else if (
      where.startsWith('server/') ||
      where.startsWith('cache/redis') ||
      where.startsWith('crawlee/') ||
      where.startsWith('mcp/')
    ) {
      for (const name of imports) {
        assert.ok(pkg.dependencies[name] || pkg.peerDependencies[name], `${where}: ${name}`);
      }
    } else {
      for (const name of imports) {
        assert.ok(pkg.dependencies[name], `${where} imports ${name}, which must be a dependency`);
      }
    }
  }
});
