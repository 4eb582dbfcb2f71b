import type { CacheEntry } from '../cache/index.ts';
import type { FetchOutcome } from './http.ts';
import { freshLifetime, parseRetryAfter, retryDelay, type CachePolicy } from './policy.ts';

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

function withoutErrorRun(entry: CacheEntry): NonNullable<CacheEntry['lastGood']> {
  const { lastGood: _lastGood, errorSince: _errorSince, errors: _errors, ...good } = entry;
  return good;
}
