/**
 * repkit's errors: one family, each failure its own class with a stable `code` and a type
 * guard (as undici's coded errors). Everything repkit throws on purpose is a `RepkitError`;
 * anything else is a bug.
 */

/** Every `code` a `RepkitError` can have; tools may match on them. */
export type RepkitErrorCode =
  /** `InvalidInputError`: a body or option the core cannot take. */
  | 'invalid-input'
  /** `InvalidUrlError` (repkit/fetch): a URL that does not parse or has no robots.txt. */
  | 'invalid-url'
  /** `InvalidOptionError` (repkit/fetch): an option the client cannot work with. */
  | 'invalid-option'
  /** `RefusedAddressError` (repkit/fetch): a host that is or resolves to a refused address. */
  | 'refused-address'
  /** `FetchBudgetError` (repkit/fetch): a fetch the caller's `mayFetch` refused. */
  | 'fetch-budget'
  /** `RedirectRefusedError` (repkit/crawlee): a redirect target robots.txt does not allow. */
  | 'redirect-refused'
  /** `DisallowedError` (repkit/guards): a request robots.txt does not allow; not sent. */
  | 'disallowed'
  /** `DeferredError` (repkit/guards): a request that may not go now; not sent, ask again later. */
  | 'deferred'
  /** `StoreUnavailableError` (repkit/cache/redis): the store did not answer in time. */
  | 'store-unavailable'
  /** `WorkRefusedError` (the service): a task refused for load, budget, time or memory. */
  | 'work-refused'
  /** `BadRequestError` (the service): a request field that cannot be served. */
  | 'bad-request'
  /** `OriginBudgetError` (the service): a client's budget of new origins is spent. */
  | 'origin-budget'
  /** `CliError` (the command line): bad usage or input, printed as one line. */
  | 'cli'
  /** `MissingPeerError`: an entry whose optional package is not installed. */
  | 'missing-peer'
  /** `SitemapError` (repkit/sitemaps): a sitemap that cannot be read, or a bound reached. */
  | 'sitemap';

/**
 * Base class of every error repkit throws on purpose. Catch this to tell repkit's own,
 * explained failures from bugs.
 */
export class RepkitError extends Error {
  /** A stable, machine-readable code. */
  readonly code: RepkitErrorCode;

  constructor(code: RepkitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Whether `error` is one of repkit's own errors. */
export function isRepkitError(error: unknown): error is RepkitError {
  return error instanceof RepkitError;
}

/**
 * Thrown by `parse()` when the robots.txt body is not a string, `Uint8Array` or
 * `ArrayBuffer`, or when an option has a value it cannot take (an unknown profile, a
 * negative size limit), and by `RedisStore` for options that contradict each other. Never
 * thrown for odd robots.txt *content*: that is parsed leniently, as Google does.
 */
export class InvalidInputError extends RepkitError {
  /** Which argument or option was wrong, e.g. `body` or `options.maxBytes`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super('invalid-input', `${field}: ${message}`);
    this.field = field;
  }
}

/** Whether `error` is an `InvalidInputError` (code `invalid-input`). */
export function isInvalidInputError(error: unknown): error is InvalidInputError {
  return error instanceof InvalidInputError;
}

/**
 * Thrown when an entry that needs an optional package is loaded without it
 * (`repkit/cache/redis` without `redis`, `repkit/crawlee` without `crawlee`): `install`
 * says what to run.
 */
export class MissingPeerError extends RepkitError {
  constructor(
    /** The package that is missing. */
    readonly peer: string,
    /** The repkit entry (or command) that needs it. */
    readonly needer: string,
    options?: { cause?: unknown },
  ) {
    super(
      'missing-peer',
      `${needer} needs the "${peer}" package, which is not installed: npm i ${peer}`,
      options,
    );
  }

  /** The command that installs what is missing. */
  get install(): string {
    return `npm i ${this.peer}`;
  }
}

/** Whether `error` is a `MissingPeerError` (code `missing-peer`). */
export function isMissingPeerError(error: unknown): error is MissingPeerError {
  return error instanceof MissingPeerError;
}

/**
 * Loads `load()` (a module that imports `peer`), turning "that package is not installed" into
 * a `MissingPeerError` naming it; any other failure passes through.
 */
export async function loadWithPeer<T>(
  peer: string,
  needer: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const text = String((error as { message?: unknown })?.message ?? error);
    const code = (error as { code?: unknown })?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' && text.includes(`'${peer}'`)) {
      throw new MissingPeerError(peer, needer, { cause: error });
    }
    throw error;
  }
}
