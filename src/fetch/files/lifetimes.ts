/**
 * How long fetch results stay fresh: Google keeps robots.txt up to 24 hours by default and
 * lets Cache-Control shorten or lengthen that; server errors are retried with backoff.
 */

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Bounds on cache lifetimes, all in milliseconds. */
export interface CachePolicy {
  /** Lifetime without cache headers. Default 24 hours. */
  defaultTtl: number;
  /** Shortest lifetime, also for `no-cache`/`no-store` (a robots.txt is not fetched per URL). Default 1 minute. */
  minTtl: number;
  /** Longest lifetime a `max-age` can ask for. Default 7 days. */
  maxTtl: number;
  /** First retry delay after a server error; it doubles per consecutive error. Default 1 minute. */
  errorTtl: number;
  /** Longest retry delay, also the cap on `Retry-After`. Default 1 hour... `Retry-After` up to a day. */
  maxErrorTtl: number;
  /** How long errors may last before the answer without a copy turns to "no restrictions". Default 30 days. */
  unreachableWindow: number;
}

export const DEFAULT_POLICY: CachePolicy = {
  defaultTtl: DAY,
  minTtl: MINUTE,
  maxTtl: 7 * DAY,
  errorTtl: MINUTE,
  maxErrorTtl: HOUR,
  unreachableWindow: 30 * DAY,
};

/** The longest `Retry-After` honoured. */
const MAX_RETRY_AFTER = DAY;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Directive → value (or '' for a bare directive), lower-cased names. */
export function parseCacheControl(header: string | undefined): Map<string, string> {
  const directives = new Map<string, string>();
  for (const part of (header ?? '').split(',')) {
    const [name, value] = part.split('=', 2).map((s) => s.trim());
    if (name) directives.set(name.toLowerCase(), (value ?? '').replace(/^"|"$/g, ''));
  }
  return directives;
}

function seconds(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) * SECOND : undefined;
}

/**
 * Lifetime of a good result (2xx, or 4xx meaning "no robots.txt") from its headers:
 * `no-store`/`no-cache` → the minimum; `s-maxage` (repkit is a shared cache) over
 * `max-age` over `Expires`; else the default; always within [minTtl, maxTtl].
 */
export function freshLifetime(
  headers: Record<string, string>,
  now: number,
  policy: CachePolicy,
): number {
  const cc = parseCacheControl(headers['cache-control']);
  if (cc.has('no-store') || cc.has('no-cache')) return policy.minTtl;
  const maxAge = seconds(cc.get('s-maxage')) ?? seconds(cc.get('max-age'));
  if (maxAge !== undefined) return clamp(maxAge, policy.minTtl, policy.maxTtl);
  if (headers['expires'] !== undefined) {
    const expires = Date.parse(headers['expires']);
    const date = headers['date'] !== undefined ? Date.parse(headers['date']) : now;
    // An invalid Expires means "already expired" (RFC 9111 §5.3).
    const lifetime = Number.isNaN(expires) ? 0 : expires - (Number.isNaN(date) ? now : date);
    return clamp(lifetime, policy.minTtl, policy.maxTtl);
  }
  return clamp(policy.defaultTtl, policy.minTtl, policy.maxTtl);
}

/** `Retry-After` in milliseconds from `now` (seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const delay = seconds(value.trim());
  if (delay !== undefined) return delay;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** When to try again after the `errors`-th consecutive server error. */
export function retryDelay(
  errors: number,
  retryAfter: number | undefined,
  policy: CachePolicy,
): number {
  if (retryAfter !== undefined) return clamp(retryAfter, SECOND, MAX_RETRY_AFTER);
  const backoff = policy.errorTtl * 2 ** Math.min(Math.max(errors - 1, 0), 20);
  return Math.min(backoff, policy.maxErrorTtl);
}

/** How long a file that says nothing of its lifetime (no cache headers) is kept by default. */
export function defaultLifetime(): number {
  return freshLifetime({}, 0, DEFAULT_POLICY);
}
