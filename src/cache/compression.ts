import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Bodies as the stores keep them: raw DEFLATE. A robots.txt compresses about five to one, and
 * a body built to be large (a compression bomb cut at 500 KiB) to almost nothing, so a store
 * holds what a verdict needs at a fraction of its size.
 */

/**
 * A base64 body as raw DEFLATE bytes, in memory of their own size: zlib's result is a view
 * of a 16 KiB output buffer, and keeping the view keeps all of it (a 0.8 KB body held 16 KiB,
 * twenty times what the store counted).
 */
export function deflateBody(base64: string): Uint8Array {
  return new Uint8Array(deflateRawSync(Buffer.from(base64, 'base64')));
}

/** The base64 body back from its raw DEFLATE bytes. */
export function inflateBody(deflated: Uint8Array): string {
  return inflateRawSync(deflated).toString('base64');
}

/** A base64 body as base64 of its raw DEFLATE bytes, for a store that keeps text (Redis). */
export function deflateBase64(base64: string): string {
  return deflateRawSync(Buffer.from(base64, 'base64')).toString('base64');
}

/** The base64 body back from `deflateBase64`. */
export function inflateBase64(deflated: string): string {
  return inflateRawSync(Buffer.from(deflated, 'base64')).toString('base64');
}
