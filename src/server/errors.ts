import { RepkitError } from '../core/index.ts';

/**
 * A request the service answers 400, with the field it is about: `reason` says why
 * (`invalid-url`, `private-address`) and is the response's `error`.
 */
export class BadRequestError extends RepkitError {
  constructor(
    readonly reason: 'invalid-url' | 'private-address',
    readonly field: string,
    message: string,
  ) {
    super('bad-request', message);
  }
}

/**
 * A request that would start more robots.txt fetches than its client's budget of new origins
 * allows: answered 429 with `Retry-After` (`origin-budget`). Fetches it already started stay
 * cached, so the same request later costs only what is still new.
 */
export class OriginBudgetError extends RepkitError {
  constructor(
    readonly perMinute: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      'origin-budget',
      `this client may start ${perMinute.toLocaleString('en')} robots.txt fetches a minute (new origins); retry in ${retryAfterSeconds} s`,
    );
  }
}

export function isBadRequestError(error: unknown): error is BadRequestError {
  return error instanceof BadRequestError;
}
