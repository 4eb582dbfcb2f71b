import { RepkitError } from '../core/index.ts';

/**
 * Thrown by `robotsUrl()` and `RobotsClient.check()` for a URL that does not parse, or whose
 * scheme has no robots.txt (only http, https and ftp have one). `url` is the input as given.
 */
export class InvalidUrlError extends RepkitError {
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super('invalid-url', `${JSON.stringify(url)}: ${reason}`);
  }
}

export function isInvalidUrlError(error: unknown): error is InvalidUrlError {
  return error instanceof InvalidUrlError;
}

/**
 * Thrown by `new RobotsClient()` (and `withRepkitRobots`) for an option it cannot work with
 * (an empty user agent, a negative timeout...). `option` names it.
 */
export class InvalidOptionError extends RepkitError {
  constructor(
    readonly option: string,
    reason: string,
  ) {
    super('invalid-option', `${option}: ${reason}`);
  }
}

export function isInvalidOptionError(error: unknown): error is InvalidOptionError {
  return error instanceof InvalidOptionError;
}

/**
 * Thrown by `RobotsClient.preflight()` (and reported as a fetch failure with code
 * `EREFUSEDADDRESS` on any redirect hop) when a host is, or resolves to, an address the
 * client's `allowAddress` filter refuses.
 */
export class RefusedAddressError extends RepkitError {
  readonly errno = 'EREFUSEDADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      'refused-address',
      // The address itself is in `address`, not in the message: a message travels (service
      // answers, cached errors), and would map the network the client runs in.
      `${host} is, or resolves to, an address this client may not connect to (private, loopback, link-local or reserved)`,
    );
  }
}

export function isRefusedAddressError(error: unknown): error is RefusedAddressError {
  return error instanceof RefusedAddressError;
}

/**
 * Thrown by `RobotsClient.robotsFor()` when its `mayFetch` refused the fetch it would have
 * started: nothing was requested. The service answers it with 429 and `Retry-After`.
 */
export class FetchBudgetError extends RepkitError {
  constructor(readonly url: string) {
    super('fetch-budget', `fetching the robots.txt for ${url} was refused by the caller's budget`);
  }
}

export function isFetchBudgetError(error: unknown): error is FetchBudgetError {
  return error instanceof FetchBudgetError;
}
