import { closeSync, openSync, readSync } from 'node:fs';
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

/** The most of a spec or configuration file read: 8 MiB, as of a robots.txt file. */
export const MAX_TEXT_BYTES = 8 * 1024 * 1024;

/**
 * A small text file the CLI is given (a spec, a configuration): read whole but at most
 * `limit` bytes, as UTF-8. A longer one (`/dev/zero` given by mistake) is refused, not read
 * until memory runs out.
 * @throws CliError for a missing or unreadable file, a directory, or one over `limit`.
 */
export function readSmallText(path: string, limit: number, hint = ''): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.allocUnsafe(limit + 1);
    let size = 0;
    for (let read = 1; read > 0 && size <= limit; size += read) {
      read = readSync(fd, buffer, size, limit + 1 - size, null);
    }
    if (size > limit) {
      throw new CliError(`cannot read ${path}: longer than ${limit / 1024 / 1024} MiB`);
    }
    return buffer.toString('utf8', 0, size);
  } catch (error) {
    throw error instanceof CliError ? error : unreadable(path, error, hint);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
