/**
 * Reading a response's body: decoded as it arrives (gzip, deflate, brotli), at most so many
 * bytes of it (the rest not downloaded), whole or piece by piece to a sink; the head of a
 * body not otherwise read, waited for briefly; and a body not read at all, stopped.
 */
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import { EDGE_HEAD_BYTES } from '../../core/internal.ts';

/** Stops a body we will not read; the abort it causes is expected, not an error. */
export function discard(stream: Readable): void {
  stream.on('error', () => {});
  stream.destroy();
}

/** How long the head of an error's body is waited for: its status stands without it. */
const EDGE_HEAD_WAIT_MS = 1_000;

/**
 * The head of a body not otherwise read (a 403's, a 402's), for `classifyEdge`, waited for at
 * most `EDGE_HEAD_WAIT_MS`: a 503 whose body trickles must still be the 503 it is (with its
 * Retry-After), not a timeout. A body that fails to arrive or decode in time is none.
 */
export async function readHead(body: Readable, encoding: string | undefined): Promise<Uint8Array> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Uint8Array>((done) => {
    timer = setTimeout(() => done(new Uint8Array(0)), EDGE_HEAD_WAIT_MS);
  });
  try {
    return await Promise.race([
      readBody(body, encoding, EDGE_HEAD_BYTES).then((read) => read.bytes),
      late,
    ]);
  } catch {
    return new Uint8Array(0);
  } finally {
    clearTimeout(timer);
    discard(body);
  }
}

/**
 * Reads at most `maxBytes` of the decoded body and stops downloading there. Decompression is
 * streamed with the same limit on its output, so a compression bomb costs at most the limit.
 * With a `sink`, each piece goes to it and only the first `EDGE_HEAD_BYTES` are kept.
 */
export async function readBody(
  body: Readable,
  encoding: string | undefined,
  maxBytes: number,
  sink?: (chunk: Uint8Array) => void | Promise<void>,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const coding = (encoding ?? 'identity').trim().toLowerCase();
  let source: Readable = body;
  if (coding === 'gzip' || coding === 'x-gzip' || coding === 'deflate') {
    source = body.pipe(createUnzip());
  } else if (coding === 'br') {
    source = body.pipe(createBrotliDecompress());
  } else if (coding !== 'identity' && coding !== '') {
    discard(body);
    throw new Error(`unsupported Content-Encoding "${coding}"`);
  }
  // Errors of the raw body (reset, truncation) must surface through the decoder too.
  if (source !== body) body.on('error', (error) => source.destroy(error));

  const chunks: Uint8Array[] = [];
  let kept = 0;
  let size = 0;
  let truncated = false;
  const keep = (piece: Uint8Array) => {
    chunks.push(piece);
    kept += piece.length;
  };
  try {
    for await (const chunk of source as AsyncIterable<Uint8Array>) {
      // Keep what fits and stop downloading there: the rest is ignored, as Google ignores it.
      truncated = chunk.length > maxBytes - size;
      const piece = truncated ? chunk.subarray(0, maxBytes - size) : chunk;
      size += piece.length;
      if (!sink) keep(piece);
      else {
        // Only the head is kept, copied: a stream may reuse its buffers.
        if (kept < EDGE_HEAD_BYTES) keep(piece.slice(0, EDGE_HEAD_BYTES - kept));
        await sink(piece);
      }
      if (truncated) break;
    }
  } finally {
    discard(source);
    discard(body);
  }
  const bytes = new Uint8Array(kept);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, truncated };
}
