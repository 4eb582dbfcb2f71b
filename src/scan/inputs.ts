/**
 * Where captures come from: a directory of robots.txt files (each file one capture, its host
 * the file's name without `.txt`), a single file, or WARC files, gzip'd or not, as Common
 * Crawl ships its robots.txt subset (each `response` record one capture: its target's host,
 * its date, its HTTP status, headers and body; redirects resolved within the records). WARC
 * records are read by `warcio`, an optional peer, one record at a time.
 */
import { createReadStream, type Stats } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { InvalidInputError } from '../core/index.ts';
import { loadWithPeer } from '../core/internal.ts';
import { InvalidOptionError, type RobotsClient } from '../fetch/index.ts';
import type { Capture } from './analyze.ts';
import { resolveRedirects } from './redirects.ts';

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

/**
 * What each path is: a WARC file by its name, another file, or a directory.
 * @throws InvalidInputError (`paths`) for a path that cannot be read, named.
 */
export async function inputsOf(paths: readonly string[]): Promise<ScanInput[]> {
  const inputs: ScanInput[] = [];
  for (const given of paths) {
    const info = await statOf(given, (why) => new InvalidInputError('paths', why));
    // Absolute: the key a resumed scan and the database's `input` column know it by.
    const path = resolve(given);
    if (info.isDirectory()) {
      let bytes = 0;
      // An entry that cannot be read counts nothing (a dangling link, one removed since
      // listed): reading passes over it, or names it.
      for (const name of await readdir(path)) {
        bytes += (await stat(join(path, name)).catch(() => undefined))?.size ?? 0;
      }
      inputs.push({ kind: 'directory', path, bytes });
    } else {
      const kind = /\.warc(\.gz)?$/i.test(path) ? 'warc' : 'file';
      inputs.push({ kind, path, bytes: info.size });
    }
  }
  return inputs;
}

/**
 * Lists of sites as inputs.
 * @throws InvalidOptionError (`sites`) for a list that cannot be read, or is a directory.
 */
export async function sitesInputs(paths: readonly string[]): Promise<ScanInput[]> {
  return Promise.all(
    paths.map(async (given) => {
      const refuse = (why: string) => new InvalidOptionError('sites', why);
      const info = await statOf(given, refuse);
      if (info.isDirectory()) throw refuse(`${given} is a directory, not a list of sites`);
      return { kind: 'sites' as const, path: resolve(given), bytes: info.size };
    }),
  );
}

/** `stat` of a path the scan was given, or the error `refuse` makes of why it cannot be read. */
async function statOf(given: string, refuse: (why: string) => Error): Promise<Stats> {
  try {
    return await stat(given);
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
    case 'file':
      yield await fileCapture(input.path, input.path);
      position(input.bytes);
      return;
    case 'directory':
      yield* directoryCaptures(input.path, position);
      return;
    case 'warc':
      yield* resolveRedirects(warcCaptures(input.path, position));
  }
}

/** Files of a directory that could not be read, named in the error that ends its input. */
const UNREADABLE_NAMED = 5;

/**
 * The files of a directory, in name order, each a capture. Entries that are no file are
 * passed over (directories, dangling links, files removed since the listing); a file that
 * cannot be read does not end the reading: the rest are read, and the input then ends with
 * an error naming those that could not be.
 */
async function* directoryCaptures(
  dir: string,
  position: (bytes: number) => void,
): AsyncGenerator<Capture> {
  let read = 0;
  const unreadable: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const path = join(dir, name);
    let capture: Capture;
    try {
      if (!(await fileStat(path))?.isFile()) continue;
      capture = await fileCapture(path, dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      const code = (error as NodeJS.ErrnoException).code;
      unreadable.push(
        `${name} (${code === 'EACCES' ? 'permission denied' : (error as Error).message})`,
      );
      continue;
    }
    position((read += capture.body.length));
    yield capture;
  }
  if (unreadable.length > 0) {
    const more = unreadable.length - UNREADABLE_NAMED;
    const named = unreadable.slice(0, UNREADABLE_NAMED).join(', ');
    throw new Error(
      `could not read ${unreadable.length} of its files (the rest were read): ${named}${more > 0 ? `, and ${more} more` : ''}`,
    );
  }
}

/** `stat` of a path, or undefined where there is nothing there (a dangling link, a removed file). */
async function fileStat(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * A file on disk as a capture: served 200, its host its name without `.txt`; read to
 * `MAX_RECORD_BYTES`, as a record's body is (a huge file or a device is not read whole).
 */
async function fileCapture(path: string, input: string): Promise<Capture> {
  const body = await readAtMost(path, MAX_RECORD_BYTES);
  return { host: basename(path).replace(/\.txt$/i, ''), input, status: 200, headers: {}, body };
}

/** The first `limit` bytes of a file (fewer where it is shorter). */
async function readAtMost(path: string, limit: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = new Uint8Array(limit);
    let size = 0;
    while (size < limit) {
      const { bytesRead } = await handle.read(buffer, size, limit - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
    }
    return size === limit ? buffer : buffer.slice(0, size);
  } finally {
    await handle.close();
  }
}

/** Bytes of a record's body read: a robots.txt is read to 500 KiB, so a little more says it was cut. */
const MAX_RECORD_BYTES = 1024 * 1024;

/** The `response` records of a WARC file, gzip'd (member by member) or not. */
async function* warcCaptures(
  path: string,
  position: (bytes: number) => void,
): AsyncGenerator<Capture> {
  const { WARCParser } = await loadWithPeer(
    'warcio',
    'repkit scan (WARC input)',
    () => import('warcio'),
  );
  // Gunzipped here, by Node's zlib (members one after another), rather than by warcio's own
  // JavaScript inflate (pako: an eighth of a scan's CPU time in a profile).
  let fileRead = 0;
  let plainRead = 0;
  const file = createReadStream(path, { highWaterMark: 1024 * 1024 });
  const plain = gunzipped(
    counted(file, (bytes) => (fileRead += bytes)),
    (bytes) => (plainRead += bytes),
  );
  const parser = new WARCParser(plain);
  try {
    for await (const record of parser) {
      position(fileRead);
      const capture = await captureOf(record, path);
      if (capture) yield capture;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'Z_BUF_ERROR') throw error;
    throw new Error(`truncated: the file ends inside a gzip member (at byte ${fileRead})`);
  } finally {
    file.destroy();
  }
  // The parser ends quietly at a record cut short, its offset then that record's start
  // rather than the end of what was read.
  if (parser.offset < plainRead) {
    throw new Error(
      `truncated: the record at byte ${parser.offset} (of the WARC as written) ends before its length (the file is cut)`,
    );
  }
}

/** A `response` record as a capture; undefined for other records and those without a target. */
async function captureOf(record: WarcRecord, input: string): Promise<Capture | undefined> {
  if (record.warcType !== 'response' || !record.httpHeaders) return undefined;
  let url: URL;
  try {
    url = new URL(record.warcTargetURI ?? '');
  } catch {
    return undefined; // a record without a usable target says nothing of a site
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of record.httpHeaders.headers) headers[name.toLowerCase()] = value;
  const body = await boundedContent(record);
  const date = record.warcDate;
  return {
    host: url.host,
    url: url.href,
    input,
    ...(date ? { capturedAt: date } : {}),
    status: Number(record.httpHeaders.statusCode) || 0,
    headers,
    body,
  };
}

type WarcRecord = import('warcio').WARCRecord;

/**
 * `bytes` as written: gunzipped when they start as gzip does (one member after another),
 * else as they are. `read` is told the size of each chunk handed on.
 */
async function* gunzipped(
  bytes: AsyncIterable<Uint8Array>,
  read: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const chunks = bytes[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done) return;
  const all = (async function* () {
    yield first.value;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  })();
  const gzip = first.value[0] === 0x1f && first.value[1] === 0x8b;
  let source: AsyncIterable<Uint8Array> = all;
  if (gzip) {
    // Large pieces: each is a hop to the thread pool and back, where the reader waits.
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    // A failure on either side ends the other, and is thrown where the bytes are read.
    pipeline(Readable.from(all), gunzip).catch(() => {});
    source = gunzip;
  }
  yield* counted(source, read);
}

async function* counted(
  stream: AsyncIterable<Uint8Array>,
  read: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) {
    read(chunk.length);
    yield chunk;
  }
}

/** A record's (transfer-decoded) content, at most `MAX_RECORD_BYTES`: the rest is skipped. */
async function boundedContent(record: {
  contentReader: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of record.contentReader) {
    if (size < MAX_RECORD_BYTES) {
      const kept = chunk.subarray(0, MAX_RECORD_BYTES - size);
      chunks.push(kept);
      size += kept.length;
    }
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

/**
 * The robots.txt of each site listed in `path` (one per line; `#` comments and blank lines
 * skipped; a bare host is https), fetched through `client`, one at a time, as the store keeps
 * it: its status and headers, its body (a wall's too, with a client reading walls
 * `literal`), what stood in its place. A line that is no site is skipped.
 */
async function* sitesCaptures(
  path: string,
  client: RobotsClient,
  position: (bytes: number) => void,
): AsyncGenerator<Capture> {
  // Read line by line: a list of millions of sites is never held whole.
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let read = 0;
  for await (const raw of lines) {
    position((read += Buffer.byteLength(raw) + 1));
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') continue;
    let url: URL;
    try {
      url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(line) ? line : `https://${line}/`);
    } catch {
      continue;
    }
    let state;
    try {
      state = await client.robotsFor(url.href);
    } catch {
      continue; // an address the guard refuses, a URL without a robots.txt
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
}
