/**
 * The library examples of the documentation (the `ts` blocks of README.md and docs/) type-check against the package as it
 * is published (the built declarations, imported as `repkit/...`), so a renamed option or a
 * changed return type breaks this test, not a reader's first try. The blocks are fragments
 * of a program: a name one uses without defining (`body`, `url`, a Playwright `page`...) is
 * declared for it here, as the text around it describes it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { blocksOf, docPages, type Block } from '../helpers/docs.ts';
import { ROOT } from '../helpers/shared.ts';
import { CONSUMER_OPTIONS } from '../helpers/typescript.ts';

/** What each free name of the README's fragments stands for, as the text says. */
const CONTEXT: Record<string, string> = {
  body: 'declare const body: string;',
  url: 'declare const url: string;',
  html: 'declare const html: string;',
  headers: 'declare const headers: Record<string, string>;',
  verdict: "declare const verdict: import('repkit/fetch').CheckResult;",
  page: "declare const page: import('playwright-core').Page;",
  client: "declare const client: import('repkit/fetch').RobotsClient;",
  requestHandler: 'declare const requestHandler: () => Promise<void>;',
  RedisStore: "import { RedisStore } from 'repkit/cache/redis';",
  CacheEntry: "import type { CacheEntry } from 'repkit/cache';",
  Lease: "import type { Lease } from 'repkit/cache';",
};

function blocks(): Block[] {
  return docPages()
    .flatMap(blocksOf)
    .filter((block) => block.lang === 'ts');
}

/** A block with the names it uses but does not define declared before it. */
function withContext(block: string): string {
  const lines = Object.entries(CONTEXT)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(block))
    .filter(
      ([name]) =>
        !new RegExp(
          `\\b(const|let|interface)\\s+${name}\\b|^import\\b[^\\n]*\\b${name}\\b`,
          'm',
        ).test(block),
    )
    .map(([, line]) => line);
  return `${lines.join('\n')}\n${block}\nexport {};\n`;
}

test("the docs' library examples type-check against the built package", () => {
  const found = blocks();
  assert.ok(found.length >= 14, `${found.length} blocks`);
  // Inside the checkout, so that `repkit/...` resolves to this package's own exports.
  const dir = mkdtempSync(join(ROOT, '.readme-examples-'));
  try {
    const files = found.map((block, i) => {
      const file = join(dir, `example-${i}.ts`);
      writeFileSync(file, withContext(block.lines.join('\n')));
      return file;
    });
    const where = (name: string) => {
      const block = found[Number(/example-(\d+)\.ts$/.exec(name)?.[1])];
      return block ? `${block.page} (block at line ${block.line})` : name;
    };
    const program = ts.createProgram(files, CONSUMER_OPTIONS);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const at = d.file
        ? `${where(d.file.fileName)}: ${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : '';
      return `${at} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    assert.deepEqual(problems, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
