/**
 * Where captures come from: a directory of robots.txt files (each file one capture, its host
 * the file's name without `.txt`), a single file, or WARC files, gzip'd or not, as Common
 * Crawl ships its robots.txt subset (each `response` record one capture: its target's host,
 * its date, its HTTP status, headers and body). WARC records are read by `warcio`, an
 * optional peer, one record at a time.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { loadWithPeer } from '../core/internal.ts';
import type { Capture } from './analyze.ts';

/** An input `repkit scan` was given, as it was read. */
export type ScanInput =
  | { kind: 'warc'; path: string }
  | { kind: 'file'; path: string }
  | { kind: 'directory'; path: string };

/** What each path is: a WARC file by its name, another file, or a directory. */
export async function inputsOf(paths: readonly string[]): Promise<ScanInput[]> {
  const inputs: ScanInput[] = [];
  for (const path of paths) {
    const info = await stat(path);
    if (info.isDirectory()) inputs.push({ kind: 'directory', path });
    else if (/\.warc(\.gz)?$/i.test(path)) inputs.push({ kind: 'warc', path });
    else inputs.push({ kind: 'file', path });
  }
  return inputs;
}

/** The captures of one input, in its order. */
export async function* capturesOf(input: ScanInput): AsyncGenerator<Capture> {
  switch (input.kind) {
    case 'file':
      yield await fileCapture(input.path);
      return;
    case 'directory':
      for (const name of (await readdir(input.path)).sort()) {
        const path = join(input.path, name);
        if ((await stat(path)).isFile()) yield await fileCapture(path);
      }
      return;
    case 'warc':
      yield* warcCaptures(input.path);
  }
}

/** A file on disk as a capture: served 200, its host its name without `.txt`. */
async function fileCapture(path: string): Promise<Capture> {
  const body = new Uint8Array(await readFile(path));
  return { host: basename(path).replace(/\.txt$/i, ''), status: 200, headers: {}, body };
}

/** Bytes of a record's body read: a robots.txt is read to 500 KiB, so a little more says it was cut. */
const MAX_RECORD_BYTES = 1024 * 1024;

/** The `response` records of a WARC file, gzip'd (member by member) or not. */
async function* warcCaptures(path: string): AsyncGenerator<Capture> {
  const { WARCParser } = await loadWithPeer(
    'warcio',
    'repkit scan (WARC input)',
    () => import('warcio'),
  );
  const size = (await stat(path)).size;
  const parser = new WARCParser(createReadStream(path));
  for await (const record of parser) {
    if (record.warcType !== 'response' || !record.httpHeaders) continue;
    const target = record.warcTargetURI ?? '';
    let host: string;
    try {
      host = new URL(target).host;
    } catch {
      continue; // a record without a usable target says nothing of a site
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of record.httpHeaders.headers) headers[name.toLowerCase()] = value;
    const body = await boundedContent(record);
    const date = record.warcDate;
    yield {
      host,
      ...(date ? { capturedAt: date } : {}),
      status: Number(record.httpHeaders.statusCode) || 0,
      headers,
      body,
    };
  }
  // The parser ends quietly at a record cut short, its offset (in the file's own bytes, gzip'd
  // or not) then that record's start rather than the file's end.
  if (parser.offset < size) {
    throw new Error(
      `truncated: the record at byte ${parser.offset} ends before its length (the file is cut)`,
    );
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
