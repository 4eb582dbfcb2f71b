/**
 * The public surface, pinned: every name each package entry exports, value or type, as
 * TypeScript sees it. A change to the surface changes `api-surface.json` in the same commit
 * (`REPKIT_WRITE_API=1 node --import tsx --test test/package/api.test.ts` rewrites it), so it
 * is a decision, never an accident.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { typescriptProgram } from '../helpers/typescript.ts';
import { ROOT } from '../helpers/shared.ts';

const SNAPSHOT = join(ROOT, 'test/package/api-surface.json');

function surface(): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, { import: string } | string>;
  };
  const entries = Object.entries(pkg.exports)
    .filter((entry): entry is [string, { import: string }] => typeof entry[1] !== 'string')
    .map(
      ([name, target]) =>
        [name, join(ROOT, target.import.replace(/^\.\/dist\/(.*)\.js$/, 'src/$1.ts'))] as const,
    );
  const program = typescriptProgram(entries.map(([, file]) => file));
  const checker = program.getTypeChecker();
  const result: Record<string, string[]> = {};
  for (const [name, file] of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    result[name] = checker
      .getExportsOfModule(module)
      .map((symbol) => {
        const target =
          symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return `${target.flags & ts.SymbolFlags.Value ? 'value' : 'type'} ${symbol.name}`;
      })
      .sort();
  }
  return result;
}

test('the public surface is the one pinned in api-surface.json', () => {
  const now = surface();
  if (process.env['REPKIT_WRITE_API'] === '1') {
    writeFileSync(SNAPSHOT, JSON.stringify(now, null, 2) + '\n');
  }
  const pinned = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Record<string, string[]>;
  assert.deepEqual(now, pinned);
  // Every entry of package.json is read, and none is empty.
  for (const names of Object.values(now)) assert.ok(names.length > 0);
});
