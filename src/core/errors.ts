/**
 * Base class of every error repkit throws on purpose. Catch this to tell repkit's own,
 * explained failures from bugs.
 */
export class RepkitError extends Error {
  /** A stable, machine-readable code, e.g. `invalid-input`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * Thrown by `parse()` when the robots.txt body is not a string, `Uint8Array` or
 * `ArrayBuffer`, or when an option has a value it cannot take (an unknown profile, a
 * negative size limit). Never thrown for odd robots.txt *content*: that is parsed
 * leniently, as Google does.
 */
export class InvalidInputError extends RepkitError {
  /** Which argument or option was wrong, e.g. `body` or `options.maxBytes`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super('invalid-input', `${field}: ${message}`);
    this.field = field;
  }
}
