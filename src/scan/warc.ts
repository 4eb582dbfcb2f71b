/**
 * WARC files read (`.warc`, `.warc.gz`, as Common Crawl ships its robots.txt subset): each
 * `response` record one capture, its target's host, its date, its HTTP status, headers and
 * body. Records are read by `warcio`, an optional peer, one record at a time, from bytes
 * gunzipped by Node's zlib.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { loadWithPeer } from '../core/internal.ts';
import type { Capture } from './analyze.ts';

/** Bytes of a record's body read: a robots.txt is read to 500 KiB, so a little more says it was cut. */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** The `response` records of a WARC file, gzip'd (member by member) or not. */
export async function* warcCaptures(
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
