import { CliError } from './errors.ts';

/** An option's parser for a whole number within bounds; anything else is a usage error naming it. */
export function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new CliError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
    return n;
  };
}
