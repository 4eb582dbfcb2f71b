import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package's version, read from its package.json (beside dist/ or src/). */
export function packageVersion(): string {
  const path = fileURLToPath(new URL('../../package.json', import.meta.url));
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}
