import { RepkitError } from '../core/index.ts';

/**
 * A crawler's request redirected to a URL that is not requested: its own robots.txt
 * disallows it, or cannot be read now (then the request is retried later).
 */
export class RedirectRefusedError extends RepkitError {
  constructor(
    /** The redirect target, as it would have been requested. */
    readonly url: string,
    reason: string,
  ) {
    super('redirect-refused', `redirect to ${url} not followed: ${reason}`);
  }
}

export function isRedirectRefusedError(error: unknown): error is RedirectRefusedError {
  return error instanceof RedirectRefusedError;
}
