import { RepkitError, type Edge } from '../core/index.ts';
import type { CheckResult } from '../fetch/index.ts';

/**
 * Thrown by the guards (`robotsFetch`, `robotsInterceptor`, `guardPage`) for a request whose
 * robots.txt disallows it, as it would be sent (after URL serialisation, on any redirect
 * hop). Nothing was sent. `line` is the deciding line of `robotsUrl`.
 */
export class DisallowedError extends RepkitError {
  /** The URL as it would have been requested. */
  readonly url: string;
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

export function isDisallowedError(error: unknown): error is DisallowedError {
  return error instanceof DisallowedError;
}

/**
 * Thrown by the guards for a request that may not go now: its robots.txt cannot be read
 * (5xx, 429, a timeout: never taken as "allowed"), its host asked to slow down (a 429 or 503
 * page's `Retry-After`), its Crawl-delay turn is further off than the guard waits, or the store
 * that keeps the turns failed. Nothing was sent; ask again after `retryAfterMs`. `edge`:
 * what answered in the robots.txt's place, when a bot wall or a 402 did (see `classifyEdge`).
 */
export class DeferredError extends RepkitError {
  readonly edge?: Edge;

  constructor(
    /** The URL that was not requested. */
    readonly url: string,
    readonly why: 'robots-txt-unreachable' | 'politeness' | 'store-error',
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

export function isDeferredError(error: unknown): error is DeferredError {
  return error instanceof DeferredError;
}
