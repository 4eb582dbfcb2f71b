import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p`: makes `dir` and its missing parents, one level at a time, each once. Node's
 * own `mkdir(dir, { recursive: true })` never settles for a folder under `/proc` (procfs
 * answers ENOENT to a new name, which its walk reads as a missing parent and makes again,
 * forever: `repkit scan --out /proc/x` spun at full CPU); here a level that cannot be made
 * fails with the system's error.
 * @throws the system's error (`ENOENT`, `EACCES`, ...), or one coded `ENOTDIR` naming the
 *   path that is not a directory (`dir` itself, or a parent).
 */
export async function makeDirectories(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(dir); ;) {
    const found = await stat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (found) {
      if (!found.isDirectory()) {
        throw Object.assign(new Error(`${at} is not a directory`), { code: 'ENOTDIR' });
      }
      break;
    }
    missing.push(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const level of missing.reverse()) {
    await mkdir(level).catch((error: NodeJS.ErrnoException) => {
      // Made meanwhile by another process: the next level says if it is no directory.
      if (error.code !== 'EEXIST') throw error;
    });
  }
}
