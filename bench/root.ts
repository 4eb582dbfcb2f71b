import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root: the nearest folder above this file with a package.json. The bench runs
 * compiled (from `.bench/bench/`), so paths are found from the root, not from this file.
 */
export const ROOT = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(resolve(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('bench: no package.json above ' + import.meta.url);
    dir = parent;
  }
  return dir;
})();
