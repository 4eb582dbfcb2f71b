// After tsc: makes the CLI executable (npx runs it by its shebang), and bundles the web tester
// (src/server/tester) with the core into dist/server/tester, so the page computes verdicts in
// the browser with the same code as everything else.
import { chmod, copyFile, mkdir } from 'node:fs/promises';
import { build } from 'esbuild';

await chmod('dist/cli/index.js', 0o755);

const out = 'dist/server/tester';
await mkdir(out, { recursive: true });
await build({
  entryPoints: ['src/server/tester/tester.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  outfile: `${out}/tester.js`,
  logLevel: 'warning',
});
await copyFile('src/server/tester/index.html', `${out}/index.html`);
