// After tsc: makes the CLI executable (npx runs it by its shebang), bundles its toolkit, and bundles the web tester
// (src/tester) with the core into dist/tester, so the page computes verdicts in
// the browser with the same code as everything else.
import { chmod, copyFile, mkdir, rm } from 'node:fs/promises';
import { build } from 'esbuild';

await chmod('dist/cli/index.js', 0o755);

// The CLI's own libraries (commander, picocolors) go into its toolkit module, replacing what
// tsc wrote: they are development dependencies, so `npm i repkit` does not install them.
await build({
  entryPoints: ['src/cli/toolkit.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile: 'dist/cli/toolkit.js',
  // commander is CommonJS and requires Node's modules: give the bundle a real `require`.
  banner: {
    js: "import { createRequire as repkitRequire } from 'node:module'; const require = repkitRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
// tsc's map was of the file the bundle replaced: shipped, it would point at the wrong lines.
await rm('dist/cli/toolkit.js.map', { force: true });

const out = 'dist/tester';
await mkdir(out, { recursive: true });
await build({
  entryPoints: ['src/tester/tester.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  outfile: `${out}/tester.js`,
  logLevel: 'warning',
});
// Its worker: parsing, lint and verdicts off the page's thread.
await build({
  entryPoints: ['src/tester/worker.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  outfile: `${out}/tester-worker.js`,
  logLevel: 'warning',
});
await copyFile('src/tester/index.html', `${out}/index.html`);
