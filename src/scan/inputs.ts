/**
 * Where captures come from: a directory of robots.txt files (each file one capture, its host
 * the file's name without `.txt`; its WARC files inputs of their own), a single file, WARC
 * files (read in warc.ts; redirects resolved within the records), or lists of sites fetched
 * now. Each file is read once, however it is reached.
 */
import { createReadStream, type BigIntStats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { InvalidInputError } from '../core/index.ts';
import { InvalidOptionError, type RobotsClient } from '../fetch/index.ts';
import type { Capture } from './analyze.ts';
import { fileCapture } from './file-captures.ts';
import { readAhead } from './read-ahead.ts';
import { resolveRedirects } from './redirects.ts';
import { warcCaptures } from './warc.ts';

/** An input `repkit scan` was given, as it was read. */
export interface ScanInput {
  /**
   * A WARC file, a robots.txt file, a directory of them, or a list of sites, one per line,
   * whose robots.txt is fetched now (see `sitesCaptures`).
   */
  kind: 'warc' | 'file' | 'directory' | 'sites';
  /** Its absolute path. */
  path: string;
  /** Its size in bytes (a directory's files together): what progress is counted in. */
  bytes: number;
}

/** A WARC file, by its name (`.warc`, `.warc.gz`). */
const WARC_NAME = /\.warc(\.gz)?$/i;

/**
 * What each path is: a WARC file by its name, another file, or a directory; a directory's
 * WARC files are inputs of their own (read as WARC files, not as robots.txt files). Each
 * file is read once however often it is reached: a path given twice (`dir` and `./dir/`),
 * or a file given beside the directory that holds it, would have had its captures counted
 * twice.
 * @throws InvalidInputError (`paths`) for a path that cannot be read, named.
 */
export async function inputsOf(paths: readonly string[]): Promise<ScanInput[]> {
  const given: { path: string; info: BigIntStats }[] = [];
  for (const path of paths) {
    const info = await statOf(path, (why) => new InvalidInputError('paths', why));
    // Absolute: the key a resumed scan and the database's `input` column know it by.
    given.push({ path: resolve(path), info });
  }
  // The directories' files first, so that a file given on its own is known to be in one.
  const listings = new Map<string, Listing>();
  const inDirectories = new Set<string>();
  for (const { path, info } of given) {
    const id = identity(info, path);
    if (!info.isDirectory() || listings.has(id)) continue;
    const listing = await listingOf(path);
    listings.set(id, listing);
    for (const file of listing.files) inDirectories.add(file);
  }
  const inputs: ScanInput[] = [];
  const taken = new Set<string>();
  const take = (input: ScanInput, id: string) => {
    if (taken.has(id)) return;
    taken.add(id);
    inputs.push(input);
  };
  for (const { path, info } of given) {
    const id = identity(info, path);
    if (info.isDirectory()) {
      const listing = listings.get(id)!;
      // A folder of WARC files only is their container, not an input; an empty one still is.
      if (listing.files.length > 0 || listing.warcs.length === 0) {
        take({ kind: 'directory', path, bytes: listing.bytes }, id);
      }
      for (const warc of listing.warcs) take(warc.input, warc.id);
    } else if (WARC_NAME.test(path)) {
      take({ kind: 'warc', path, bytes: Number(info.size) }, id);
    } else if (!inDirectories.has(id)) {
      take({ kind: 'file', path, bytes: Number(info.size) }, id);
    }
  }
  return inputs;
}

/** What a directory holds for a scan: its robots.txt files, their bytes, its WARC files. */
interface Listing {
  files: string[];
  bytes: number;
  warcs: { input: ScanInput; id: string }[];
}

/**
 * A directory's regular files (the identities of those read as robots.txt files, and their
 * bytes), its WARC files as inputs, in name order. An entry that cannot be read counts
 * nothing (a dangling link, one removed since listed): reading passes over it, or names it.
 */
async function listingOf(dir: string): Promise<Listing> {
  const listing: Listing = { files: [], bytes: 0, warcs: [] };
  const names = (await readdir(dir)).sort();
  const stats = readAhead(names, DIRECTORY_READ_AHEAD, (name) =>
    stat(join(dir, name), { bigint: true }).then(
      (info) => ({ name, info }),
      () => ({ name, info: undefined }),
    ),
  );
  for await (const { name, info } of stats) {
    const path = join(dir, name);
    if (!info?.isFile()) continue;
    const bytes = Number(info.size);
    if (WARC_NAME.test(name)) {
      listing.warcs.push({ input: { kind: 'warc', path, bytes }, id: identity(info, path) });
    } else {
      listing.files.push(identity(info, path));
      listing.bytes += bytes;
    }
  }
  return listing;
}

/**
 * What a file or directory is, whatever the name it was reached by: its device and inode,
 * read exactly (as bigints: a 64-bit inode number is not exact as a number). Where the file
 * system gives no inode number (0), its absolute path.
 */
function identity(info: BigIntStats, path: string): string {
  return info.ino > 0n ? `${info.dev}:${info.ino}` : `path:${path}`;
}

/**
 * Lists of sites as inputs, each once however often it is given.
 * @throws InvalidOptionError (`sites`) for a list that cannot be read, or is a directory.
 */
export async function sitesInputs(paths: readonly string[]): Promise<ScanInput[]> {
  const lists = await Promise.all(
    paths.map(async (given) => {
      const refuse = (why: string) => new InvalidOptionError('sites', why);
      const info = await statOf(given, refuse);
      if (info.isDirectory()) throw refuse(`${given} is a directory, not a list of sites`);
      const path = resolve(given);
      const input: ScanInput = { kind: 'sites', path, bytes: Number(info.size) };
      return { input, id: identity(info, path) };
    }),
  );
  const taken = new Set<string>();
  return lists.filter(({ id }) => !taken.has(id) && taken.add(id)).map(({ input }) => input);
}

/** `stat` of a path the scan was given, or the error `refuse` makes of why it cannot be read. */
async function statOf(given: string, refuse: (why: string) => Error): Promise<BigIntStats> {
  try {
    return await stat(given, { bigint: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file or directory'
        : code === 'EACCES'
          ? 'permission denied'
          : (error as Error).message;
    throw refuse(`cannot read ${given}: ${why}`);
  }
}

/**
 * The captures of one input, in its order. A list of sites needs `client`, which fetches
 * each robots.txt with its cache, store, address guard and identity. `position` is told the
 * bytes of the input read so far, as reading goes.
 */
export async function* capturesOf(
  input: ScanInput,
  client?: RobotsClient,
  position: (bytes: number) => void = () => {},
): AsyncGenerator<Capture> {
  switch (input.kind) {
    case 'sites':
      if (!client) throw new Error('a list of sites needs a client to fetch them');
      yield* sitesCaptures(input.path, client, position);
      return;
    case 'file': {
      const capture = await fileCapture(input.path, input.path);
      if (capture === undefined)
        throw new Error(
          `${input.path} is not a regular file (or was removed since the scan began)`,
        );
      yield capture;
      position(input.bytes);
      return;
    }
    case 'directory':
      yield* directoryCaptures(input.path, position);
      return;
    case 'warc':
      yield* resolveRedirects(warcCaptures(input.path, position));
  }
}

/** Parts of an input that could not be read: named in the error that ends it, the first few. */
const UNREAD_NAMED = 5;

/** What of an input could not be read, as it is read: how much, and the first few, named. */
class Unread {
  count = 0;
  readonly named: string[] = [];

  add(name: string): void {
    if (this.count++ < UNREAD_NAMED) this.named.push(name);
  }

  /** The error that ends the input once the rest of it was read (`what`: its parts). */
  error(what: string): Error {
    const more = this.count - this.named.length;
    return new Error(
      `could not read ${this.count} of its ${what} (the rest were read): ${this.named.join(', ')}${more > 0 ? `, and ${more} more` : ''}`,
    );
  }
}

/** One file of a directory read: its capture (none for no regular file), or why it could not be. */
type FileRead =
  | { name: string; capture: Capture | undefined; error?: undefined }
  | { name: string; capture?: undefined; error: NodeJS.ErrnoException };

/**
 * Files of a directory read ahead of the one being measured (see `readAhead`): at most this
 * many bodies, `MAX_RECORD_BYTES` each, are held besides it.
 */
export const DIRECTORY_READ_AHEAD = 16;

/**
 * The files of a directory, in name order, each a capture. Entries that are no file are
 * passed over (directories, dangling links, files removed since the listing, WARC files,
 * inputs of their own); a file that cannot be read does not end the reading: the rest are
 * read, and the input then ends with an error naming those that could not be. The next
 * files are read while one is measured (`ahead` at most).
 */
export async function* directoryCaptures(
  dir: string,
  position: (bytes: number) => void,
  ahead = DIRECTORY_READ_AHEAD,
  read: (path: string, input: string) => Promise<Capture | undefined> = fileCapture,
): AsyncGenerator<Capture> {
  let done = 0;
  const unreadable = new Unread();
  // A WARC file in it is an input of its own (see `inputsOf`).
  const names = (await readdir(dir)).sort().filter((name) => !WARC_NAME.test(name));
  const reads = readAhead(names, ahead, (name) =>
    read(join(dir, name), dir).then(
      (capture): FileRead => ({ name, capture }),
      (error: NodeJS.ErrnoException): FileRead => ({ name, error }),
    ),
  );
  for await (const { name, capture, error } of reads) {
    if (error !== undefined) {
      unreadable.add(`${name} (${error.code === 'EACCES' ? 'permission denied' : error.message})`);
    } else if (capture !== undefined) {
      position((done += capture.body.length));
      yield capture;
    }
  }
  if (unreadable.count > 0) throw unreadable.error('files');
}

/**
 * The robots.txt of each site listed in `path` (one per line; `#` comments and blank lines
 * skipped; a bare host is https), fetched through `client`, one at a time, as the store keeps
 * it: its status and headers, its body (a wall's too, with a client reading walls
 * `literal`), what stood in its place. A line that names no site, or one whose robots.txt the
 * client will not ask for (an address its guard refuses), does not end the reading: the rest
 * are fetched, and the input then ends with an error naming those lines.
 */
async function* sitesCaptures(
  path: string,
  client: RobotsClient,
  position: (bytes: number) => void,
): AsyncGenerator<Capture> {
  // Read line by line: a list of millions of sites is never held whole.
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let read = 0;
  let number = 0;
  const unread = new Unread();
  for await (const raw of lines) {
    number++;
    position((read += Buffer.byteLength(raw) + 1));
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') continue;
    const quoted = JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}...` : line);
    let url: URL;
    try {
      url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(line) ? line : `https://${line}/`);
    } catch {
      unread.add(`line ${number} ${quoted} (not a site)`);
      continue;
    }
    let state;
    try {
      state = await client.robotsFor(url.href);
    } catch (error) {
      // An address the guard refuses, a URL that has no robots.txt (not http or https).
      unread.add(`line ${number} ${quoted} (${(error as Error).message})`);
      continue;
    }
    const { entry } = state;
    yield {
      host: url.host,
      input: path,
      capturedAt: new Date(entry.fetchedAt).toISOString(),
      status: entry.status,
      headers: entry.headers,
      body: entry.body === undefined ? new Uint8Array() : Buffer.from(entry.body, 'base64'),
      ...(entry.edge ? { edge: entry.edge } : {}),
    };
  }
  if (unread.count > 0) throw unread.error('lines as sites');
}
