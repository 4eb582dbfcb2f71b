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
    /** The budget spent: new origins a minute, or bytes of fetched files a minute. */
    readonly budget: { perMinute: number } | { bytesPerMinute: number },
    readonly retryAfterSeconds: number,
  ) {
    super(
      'origin-budget',
      'perMinute' in budget
        ? `this client may start ${budget.perMinute.toLocaleString('en')} robots.txt fetches a minute (new origins); retry in ${retryAfterSeconds} s`
        : `this client's fetches may add ${(budget.bytesPerMinute / 2 ** 20).toLocaleString('en')} MiB of robots.txt files to the store a minute; retry in ${retryAfterSeconds} s`,
    );
  }
}

export function isBadRequestError(error: unknown): error is BadRequestError {
  return error instanceof BadRequestError;
}
