/**
 * robots.txt files on disk as captures: each read through one open handle (open, fstat,
 * read, close), to `MAX_RECORD_BYTES`.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Capture } from './analyze.ts';
import { MAX_RECORD_BYTES } from './warc.ts';

/**
 * Opened without waiting: a named pipe (or a device) in a directory would otherwise hold
 * the open until something wrote to it. A regular file reads the same either way. (Windows
 * has no such flag, and no such wait.)
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Bytes asked for at once past the size `fstat` gave (a file that grew since). */
const GROWTH_STEP = 64 * 1024;

/**
 * A file on disk as a capture: served 200, its host its name without `.txt`; read to
 * `max` bytes, as a record's body is (a huge file is not read whole). Undefined where `path`
 * is no regular file (a directory, a named pipe, a device) or no longer there (a dangling
 * link, a file removed since it was listed).
 * @throws the system's error for a file that is there but cannot be read (`EACCES`,
 *   `ELOOP`, `EIO`).
 */
export async function fileCapture(
  path: string,
  input: string,
  max = MAX_RECORD_BYTES,
): Promise<Capture | undefined> {
  const body = await readRegularFile(path, max);
  if (body === undefined) return undefined;
  return { host: basename(path).replace(/\.txt$/i, ''), input, status: 200, headers: {}, body };
}

/** A regular file's first `max` bytes, in a buffer of their own; undefined as for `fileCapture`. */
async function readRegularFile(path: string, max: number): Promise<Uint8Array | undefined> {
  let handle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    let buffer = new Uint8Array(Math.min(info.size, max));
    let filled = 0;
    const probe = new Uint8Array(1);
    for (;;) {
      if (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
        if (bytesRead === 0) break;
        filled += bytesRead;
        continue;
      }
      // The size fstat gave is read: one byte more says whether the file grew since.
      if (filled >= max || (await handle.read(probe, 0, 1, null)).bytesRead === 0) break;
      const larger = new Uint8Array(Math.min(filled + GROWTH_STEP, max));
      larger.set(buffer);
      larger[filled++] = probe[0]!;
      buffer = larger;
    }
    // Exact unless the file shrank, or grew by less than a step.
    return filled === buffer.length ? buffer : buffer.slice(0, filled);
  } finally {
    await handle.close();
  }
}
