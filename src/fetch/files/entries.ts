import type { CacheEntry } from '../../cache/index.ts';
import type { EdgeReading } from '../../cache/internal.ts';
import { describeEdge } from '../../core/internal.ts';
import type { FetchOutcome } from '../net/robots-http.ts';
import { freshLifetime, parseRetryAfter, retryDelay, type CachePolicy } from './lifetimes.ts';

/**
 * The entry to keep for a fetch result: fresh for its cache lifetime, or, for an error, the
 * error run's history (when it began, how many, the last good copy) carried along and the
 * next try set by `Retry-After` or the backoff.
 */
export function entryFromFetch(
  url: string,
  result: FetchOutcome,
  previous: CacheEntry | undefined,
  now: number,
  policy: CachePolicy,
): CacheEntry {
  const entry: CacheEntry = {
    v: 1,
    robotsUrl: url,
    outcome: result.outcome,
    status: result.status,
    ...(result.body ? { body: Buffer.from(result.body).toString('base64') } : {}),
    ...(result.truncated ? { truncated: true } : {}),
    headers: result.headers,
    chain: result.chain,
    ...(result.error ? { error: result.error } : {}),
    ...(result.errorCode ? { errorCode: result.errorCode } : {}),
    ...(result.refusedHop ? { refusedHop: result.refusedHop } : {}),
    ...(result.edge ? { edge: result.edge } : {}),
    ...(result.edgeRead ? { edgeRead: result.edgeRead } : {}),
    fetchedAt: now,
    expiresAt: now,
  };
  if (result.outcome !== 'error') {
    entry.expiresAt = now + freshLifetime(result.headers, now, policy);
    return entry;
  }
  const previousError = previous?.outcome === 'error';
  const lastGood = previousError
    ? previous.lastGood
    : previous
      ? withoutErrorRun(previous)
      : undefined;
  entry.errors = (previousError ? (previous.errors ?? 0) : 0) + 1;
  entry.errorSince = previousError ? (previous.errorSince ?? previous.fetchedAt) : now;
  if (lastGood) entry.lastGood = lastGood;
  entry.expiresAt =
    now + retryDelay(entry.errors, parseRetryAfter(result.headers['retry-after'], now), policy);
  return entry;
}

/**
 * A file's fetch as `reading` reads a wall or a payment demand that answered for it: as
 * unreachable (the default: an `error`, its body dropped, so the last good copy serves and
 * the file is asked again with the error backoff; never "no robots.txt, all allowed"), or
 * literally, as Google reads the status and body it was served. An HTML page that is no wall
 * is read as Google reads it, with the edge kept to say so.
 */
export function readEdge(result: FetchOutcome, reading: EdgeReading): FetchOutcome {
  const edge = result.edge;
  if (!edge || edge.kind === 'html') return result;
  if (reading === 'literal') return { ...result, edgeRead: 'literal' };
  const { body: _body, truncated: _truncated, ...rest } = result;
  return { ...rest, outcome: 'error', error: describeEdge(edge), edgeRead: 'unreachable' };
}

/**
 * How long the store keeps an entry (ms from `now`). Past its freshness, an entry with a file
 * (a robots.txt, or an error run's last good copy) stays for the stale window, since Google
 * reads the cached copy through up to 30 days of server errors. One without a file (no
 * robots.txt, or errors with no copy) stays only one longest retry delay more: enough to
 * keep an error run's backoff and start while the origin is asked about, and a stranger's
 * unresolvable names cost a shared store an hour, not 30 days.
 */
export function storeLifetime(entry: CacheEntry, now: number, policy: CachePolicy): number {
  const hasFile = entry.body !== undefined || entry.lastGood?.body !== undefined;
  return entry.expiresAt - now + (hasFile ? policy.unreachableWindow : policy.maxErrorTtl);
}

function withoutErrorRun(entry: CacheEntry): NonNullable<CacheEntry['lastGood']> {
  const { lastGood: _lastGood, errorSince: _errorSince, errors: _errors, ...good } = entry;
  return good;
}

/** Headers a 304 replaces in the copy held (RFC 9111 §4.3.4), and those it drops when absent. */
const VALIDATION_HEADERS = ['cache-control', 'expires', 'date', 'age', 'etag', 'last-modified'];

/**
 * The validators of a copy that can be revalidated: a whole file (`ok`, read far enough)
 * with an `ETag` or a `Last-Modified`. Undefined otherwise (it is fetched whole).
 */
export function validatorsOf(
  entry: CacheEntry | undefined,
): { etag?: string; lastModified?: string } | undefined {
  if (entry?.outcome !== 'ok' || entry.body === undefined) return undefined;
  const etag = entry.headers['etag'];
  const lastModified = entry.headers['last-modified'];
  if (etag === undefined && lastModified === undefined) return undefined;
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

/**
 * The copy held, renewed by a 304: its body and status kept, its freshness headers replaced
 * by the 304's (those the 304 leaves out that describe the old response, `date` and `age`,
 * dropped), fresh again from now.
 */
export function renewedEntry(
  held: CacheEntry,
  result: FetchOutcome,
  now: number,
  policy: CachePolicy,
): CacheEntry {
  const headers = { ...held.headers };
  for (const name of VALIDATION_HEADERS) {
    const value = result.headers[name];
    if (value !== undefined) headers[name] = value;
    else if (name === 'date' || name === 'age') delete headers[name];
  }
  return {
    ...held,
    headers,
    fetchedAt: now,
    expiresAt: now + freshLifetime(headers, now, policy),
  };
}
