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

/**
 * Thrown by `new RobotsClient()` for an option it cannot work with (an empty user agent, a
 * negative timeout...). `option` names it.
 */
export class InvalidOptionError extends RepkitError {
  constructor(
    readonly option: string,
    reason: string,
  ) {
    super('invalid-option', `${option}: ${reason}`);
  }
}
