/**
 * A sitemap file's bytes as they arrive: the body given (in slices, as a download would
 * come), or a download through the crawler's client after its robots.txt lets the crawler
 * fetch the file, streamed; then gunzipped as it arrives when it starts as gzip does.
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InvalidOptionError, type FetchOutcome, type RobotsClient } from '../fetch/index.ts';
import { clientSeam } from '../fetch/internal.ts';
import { Channel } from './channel.ts';
import { SitemapError } from './errors.ts';
import type { ReadSitemapsOptions } from './options.ts';

/** Slices a body given is read in, as a download would arrive. */
const SLICE = 64 * 1024;
const ACCEPT = 'application/xml, text/xml;q=0.9, text/plain;q=0.8, */*;q=0.5';

/** A file's body as it arrives, how its download ended (none for a body given), how to stop it. */
export interface FileBody {
  body: AsyncIterable<Uint8Array>;
  outcome: Promise<FetchOutcome | undefined>;
  stop: () => void;
}

/**
 * The bytes of the file at `file.url` (or `file.bytes`, when given): downloaded through
 * `client`, at most `maxBytes` of them (decompressed) within `timeoutMs`.
 * @throws SitemapError `disallowed` when its robots.txt does not let the crawler fetch it;
 *   InvalidOptionError without a client.
 */
export async function fileBody(
  file: { url: string; bytes?: Uint8Array },
  client: RobotsClient | undefined,
  how: { agent: ReadSitemapsOptions['agent']; maxBytes: number; timeoutMs: number },
): Promise<FileBody> {
  if (file.bytes) {
    const bytes = file.bytes;
    const slices = (function* () {
      for (let at = 0; at < bytes.length; at += SLICE) yield bytes.subarray(at, at + SLICE);
    })();
    return { body: Readable.from(slices), outcome: Promise.resolve(undefined), stop: () => {} };
  }
  if (!client)
    throw new InvalidOptionError('client', 'reading the sitemaps an index lists needs a client');
  const agent = how.agent;
  const verdict = await client.check(file.url, agent === undefined ? {} : { agent });
  if (!verdict.allowed) {
    throw new SitemapError(
      'disallowed',
      file.url,
      `its robots.txt does not let ${verdict.agent.join(', ')} fetch it (${verdict.reason}${verdict.line ? `, line ${verdict.line}` : ''}${verdict.error ? `: ${verdict.error}` : ''})`,
      { errorCode: verdict.errorCode },
    );
  }
  const channel = new Channel();
  const outcome = clientSeam(client)
    .streamFile(file.url, {
      ...(agent === undefined ? {} : { agent }),
      maxBytes: how.maxBytes,
      timeoutMs: how.timeoutMs,
      accept: ACCEPT,
      sink: (chunk) => channel.push(chunk),
    })
    .finally(() => channel.end());
  return { body: channel, outcome, stop: () => channel.close() };
}

/** A file's bytes as written: gunzipped as they arrive when they start as gzip does. */
export async function* decoded(
  body: AsyncIterable<Uint8Array>,
  sitemap: string,
): AsyncGenerator<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done) return;
  const head = first.value;
  const rest = { [Symbol.asyncIterator]: () => chunks };
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    yield head;
    yield* rest;
    return;
  }
  const input = Readable.from(
    (async function* () {
      yield head;
      yield* rest;
    })(),
  );
  const gunzip = createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip as AsyncIterable<Uint8Array>) yield chunk;
  } catch (error) {
    // Only gunzip fails here: what the reader does with a chunk fails in the reader.
    throw new SitemapError('malformed', sitemap, `not valid gzip: ${(error as Error).message}`);
  } finally {
    gunzip.destroy();
    input.destroy();
  }
}
