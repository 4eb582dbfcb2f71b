import { RepkitError } from '../core/index.ts';

/**
 * Thrown by `robotsUrl()` and `RobotsClient.check()` for a URL that does not parse, or whose
 * scheme has no robots.txt (only http, https and ftp have one). `url` is the input as given.
 */
export class InvalidUrlError extends RepkitError {
  constructor(
    /** The URL as given. */
    readonly url: string,
    reason: string,
  ) {
    super('invalid-url', `${JSON.stringify(url)}: ${reason}`);
  }
}

/** Whether `error` is an `InvalidUrlError` (code `invalid-url`). */
export function isInvalidUrlError(error: unknown): error is InvalidUrlError {
  return error instanceof InvalidUrlError;
}

/**
 * Thrown by `new RobotsClient()` (and `withRepkitRobots`) for an option it cannot work with
 * (an empty user agent, a negative timeout...). `option` names it.
 */
export class InvalidOptionError extends RepkitError {
  constructor(
    /** The option, as named in the options object (`timeoutMs`, `cache.maxAgeMs`...). */
    readonly option: string,
    reason: string,
  ) {
    super('invalid-option', `${option}: ${reason}`);
  }
}

/** Whether `error` is an `InvalidOptionError` (code `invalid-option`). */
export function isInvalidOptionError(error: unknown): error is InvalidOptionError {
  return error instanceof InvalidOptionError;
}

/**
 * Thrown (by the guards, `fetchPage`), or reported as a fetch failure with code
 * `EREFUSEDADDRESS` (a robots.txt fetch, any redirect hop), when a host is, or resolves to,
 * an address the client's `allowAddress` filter refuses: no connection is opened.
 */
export class RefusedAddressError extends RepkitError {
  /** The code a fetch failure reports, as Node's network errors carry theirs. */
  readonly errno = 'EREFUSEDADDRESS';
  constructor(
    /** The host asked for. */
    readonly host: string,
    /** The address refused (kept out of `message`, which travels). */
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

/** Whether `error` is a `RefusedAddressError` (code `refused-address`). */
export function isRefusedAddressError(error: unknown): error is RefusedAddressError {
  return error instanceof RefusedAddressError;
}

/**
 * Thrown by `RobotsClient.robotsFor()` when its `mayFetch` refused the fetch it would have
 * started: nothing was requested. The service answers it with 429 and `Retry-After`.
 */
export class FetchBudgetError extends RepkitError {
  constructor(
    /** The robots.txt URL not fetched. */
    readonly url: string,
  ) {
    super('fetch-budget', `fetching the robots.txt for ${url} was refused by the caller's budget`);
  }
}

/** Whether `error` is a `FetchBudgetError` (code `fetch-budget`). */
export function isFetchBudgetError(error: unknown): error is FetchBudgetError {
  return error instanceof FetchBudgetError;
}
