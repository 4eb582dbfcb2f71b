import { RepkitError } from '../core/index.ts';

/** Behind `repkit/crawlee`'s `RedirectRefusedError` (documented there). */
export class RedirectRefusedError extends RepkitError {
  constructor(
    /** The redirect target, as it would have been requested. */
    readonly url: string,
    reason: string,
  ) {
    super('redirect-refused', `redirect to ${url} not followed: ${reason}`);
  }
}

/** Behind `repkit/crawlee`'s `isRedirectRefusedError`. */
export function isRedirectRefusedError(error: unknown): error is RedirectRefusedError {
  return error instanceof RedirectRefusedError;
}
