import { RepkitError } from '../core/index.ts';

/**
 * Thrown by CLI code for bad usage or input (a missing file, a URL that does not parse, a
 * fetch that failed). The entry point prints its message as one line on stderr, never a
 * stack trace, and exits with `exitCode` (2 unless said otherwise).
 */
export class CliError extends RepkitError {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super('cli', message);
  }
}
