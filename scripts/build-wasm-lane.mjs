#!/usr/bin/env node
/**
 * Compiles the tokenizer's byte lane (src/core/tokens/wasm-lane.wat) into the module the core
 * ships (src/core/tokens/wasm-lane-module.ts, base64). `--check` fails when the committed
 * module is not what the source compiles to (the tests run it).
 */
import { Buffer } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

const source = fileURLToPath(new URL('../src/core/tokens/wasm-lane.wat', import.meta.url));
const target = fileURLToPath(new URL('../src/core/tokens/wasm-lane-module.ts', import.meta.url));

/** The module file for the WAT text `wat`. */
export async function laneModuleFile(wat) {
  const tools = await wabt();
  const module = tools.parseWat('wasm-lane.wat', wat, { simd: true });
  try {
    module.validate();
    const { buffer } = module.toBinary({});
    const base64 = Buffer.from(buffer).toString('base64');
    return [
      '// Generated from wasm-lane.wat by scripts/build-wasm-lane.mjs (npm run build:wasm): do not edit.',
      '',
      `/** The tokenizer's byte lane, compiled (${buffer.length} bytes), in base64. */`,
      // As prettier writes it: a string too long for one line goes on the next.
      'export const WASM_LANE =',
      `  '${base64}';`,
      '',
    ].join('\n');
  } finally {
    module.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = await laneModuleFile(readFileSync(source, 'utf8'));
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== file) {
      console.error('src/core/tokens/wasm-lane-module.ts is stale: run npm run build:wasm');
      process.exit(1);
    }
  } else {
    writeFileSync(target, file);
    console.log(`wrote ${target}`);
  }
}
