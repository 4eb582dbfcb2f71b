import { open, type FileHandle } from 'node:fs/promises';
import { CliError } from './errors.ts';

/**
 * Why `path` could not be read, as the usage error every command gives (exit 2): "no such
 * file", "is a directory", "permission denied", else the system's words; `hint` follows
 * the reason where a command has advice (how to make the missing file).
 */
export function unreadable(path: string, error: unknown, hint = ''): CliError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'is a directory'
        : code === 'EACCES'
          ? 'permission denied'
          : (error as Error).message;
  return new CliError(`cannot read ${path}: ${why}${hint}`);
}

/**
 * Opens a file to read, or throws `unreadable`'s error. A directory opens (on Linux) and
 * fails only when read, where a command that streams the file lazily would meet it as an
 * internal error: it is refused here.
 * @throws CliError for a missing file, a directory or one that may not be read.
 */
export async function openToRead(path: string): Promise<FileHandle> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    if ((await handle.stat()).isDirectory()) {
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    }
    return handle;
  } catch (error) {
    await handle?.close();
    throw unreadable(path, error);
  }
}
