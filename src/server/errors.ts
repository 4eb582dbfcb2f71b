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

export function isBadRequestError(error: unknown): error is BadRequestError {
  return error instanceof BadRequestError;
}
