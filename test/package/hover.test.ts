/**
 * What a user's editor shows on hover: every name of every entry, imported from the built
 * package as `repkit/...`, has documentation in TypeScript's quick info. The entries that load
 * an optional package (`repkit/cache/redis`, `repkit/crawlee`) re-declare their names as
 * constants, whose own comments are what an editor shows: they must carry them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../helpers/shared.ts';
import { CONSUMER_OPTIONS } from '../helpers/typescript.ts';

test('every public name shows its documentation on hover, from the built declarations', () => {
  const surface = JSON.parse(
    readFileSync(join(ROOT, 'test/package/api-surface.json'), 'utf8'),
  ) as Record<string, string[]>;
  const lines: string[] = [];
  const uses: { name: string; entry: string }[] = [];
  Object.entries(surface).forEach(([entry, names], i) => {
    const specifier = entry === '.' ? 'repkit' : `repkit/${entry.slice(2)}`;
    lines.push(`import type * as E${i} from '${specifier}';`);
    for (const declared of names) {
      const [kind, name] = declared.split(' ') as ['type' | 'value', string];
      // A value is hovered where `typeof` names it, a type where it is used.
      lines.push(`type U_${i}_${name} = ${kind === 'value' ? 'typeof ' : ''}E${i}.${name};`);
      uses.push({ name, entry: specifier });
    }
  });
  // Inside the checkout, so that `repkit/...` resolves to this package's own exports.
  const dir = mkdtempSync(join(ROOT, '.hover-'));
  try {
    const file = join(dir, 'hover.ts');
    const text = `${lines.join('\n')}\nexport {};\n`;
    writeFileSync(file, text);
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => [file],
      getScriptVersion: () => '1',
      getScriptSnapshot: (name) =>
        ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(name)!) : undefined,
      getCurrentDirectory: () => dir,
      getCompilationSettings: () => CONSUMER_OPTIONS,
      getDefaultLibFileName: ts.getDefaultLibFilePath,
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    const service = ts.createLanguageService(host);
    const undocumented: string[] = [];
    let at = 0;
    for (const { name, entry } of uses) {
      // The `.Name` of `E<i>.Name`: where a user's cursor would be on the name.
      at = text.indexOf(`.${name};`, at) + 1;
      const info = service.getQuickInfoAtPosition(file, at);
      const docs = ts.displayPartsToString(info?.documentation).trim();
      if (docs === '') undocumented.push(`${entry} ${name}`);
    }
    assert.ok(uses.length > 150, `${uses.length} names`);
    assert.deepEqual(undocumented, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
