import { RepkitError, type Edge } from '../core/index.ts';
import type { CheckResult, DeferReason } from '../fetch/index.ts';

/**
 * Thrown by the guards (`robotsFetch`, `robotsInterceptor`, `guardPage`) for a request whose
 * robots.txt disallows it, as it would be sent (after URL serialisation, on any redirect
 * hop). Nothing was sent. `line` is the deciding line of `robotsUrl`.
 */
export class DisallowedError extends RepkitError {
  /** The URL as it would have been requested. */
  readonly url: string;
  /** The robots.txt that disallows it. */
  readonly robotsUrl: string;
  /** The deciding line (0 when no rule decided). */
  readonly line: number;
  /** The verdict, with its reason and rule. */
  readonly result: CheckResult;

  constructor(result: CheckResult) {
    const url = result.requestUrl ?? result.url;
    super(
      'disallowed',
      `${url} is disallowed for ${result.agent.join(', ')} by ${result.robotsUrl}${result.line ? ` line ${result.line}` : ''}`,
    );
    this.url = url;
    this.robotsUrl = result.robotsUrl;
    this.line = result.line;
    this.result = result;
  }
}

/**
 * Whether `error` is a `DisallowedError`, of this copy of repkit or another (known by its name
 * and code). A refusal an HTTP client wrapped (undici's `fetch` hands an interceptor's on as
 * `TypeError: fetch failed`, the refusal its `cause`) is not one: `refusalOf` finds it there.
 */
export function isDisallowedError(error: unknown): error is DisallowedError {
  return refusalIn(error, 'disallowed', 1) !== undefined;
}

/**
 * The `DisallowedError` or `DeferredError` that `error` is, or wraps in its chain of
 * `cause`s (`fetch(url, { dispatcher })` wraps an interceptor's refusal in a `TypeError`);
 * undefined when there is none.
 *
 * @example
 * try {
 *   await fetch(url, { dispatcher });
 * } catch (error) {
 *   const refusal = refusalOf(error);
 *   if (refusal?.code === 'disallowed') console.log(refusal.robotsUrl, refusal.line);
 * }
 */
export function refusalOf(error: unknown): DisallowedError | DeferredError | undefined {
  return refusalIn(error, 'disallowed') ?? refusalIn(error, 'deferred');
}

/** How deep a chain of causes is looked through. */
const CAUSES = 8;

function refusalIn<C extends 'disallowed' | 'deferred'>(
  error: unknown,
  code: C,
  depths = CAUSES,
): (C extends 'disallowed' ? DisallowedError : DeferredError) | undefined {
  const name = code === 'disallowed' ? 'DisallowedError' : 'DeferredError';
  let found: unknown = error;
  for (let depth = 0; depth < depths && typeof found === 'object' && found !== null; depth++) {
    const candidate = found as { name?: unknown; code?: unknown; cause?: unknown };
    if (candidate.name === name && candidate.code === code) {
      return found as C extends 'disallowed' ? DisallowedError : DeferredError;
    }
    found = candidate.cause;
  }
  return undefined;
}

/**
 * Thrown by the guards for a request that may not go now: its robots.txt cannot be read
 * (5xx, 429, a timeout: never taken as "allowed"), its host asked to slow down (a 429 or 503
 * page's `Retry-After`), its Crawl-delay turn is further off than the guard waits, or the store
 * that keeps the turns failed. Nothing was sent; ask again after `retryAfterMs`. `edge`:
 * what answered in the robots.txt's place, when a bot wall or a 402 did (see `classifyEdge`).
 */
export class DeferredError extends RepkitError {
  /** What answered in the robots.txt's place, when a wall or a payment demand did. */
  readonly edge?: Edge;

  constructor(
    /** The URL that was not requested. */
    readonly url: string,
    /** Why it waits: its robots.txt cannot be read, its host's turn, or the store failed. */
    readonly why: DeferReason,
    /** How long to wait before asking again. */
    readonly retryAfterMs: number,
    detail: string,
    edge?: Edge,
  ) {
    super(
      'deferred',
      `${url} not requested now: ${detail}; ask again in ${Math.ceil(retryAfterMs / 1000)} s`,
    );
    if (edge) this.edge = edge;
  }
}

/** Whether `error` is a `DeferredError`, of this copy of repkit or another (see `refusalOf`). */
export function isDeferredError(error: unknown): error is DeferredError {
  return refusalIn(error, 'deferred', 1) !== undefined;
}
