import { CliError } from './errors.ts';

/** A comma-separated list of Host names (`name` or `name:port`, `*` for any). */
export function hostList(value: string, from: string): string[] {
  const hosts = value
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  const bad = hosts.find(
    (h) => h !== '*' && !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(h),
  );
  if (hosts.length === 0 || bad !== undefined) {
    throw new CliError(
      `${from} must be Host names (name or name:port), comma-separated, or *; got "${bad ?? value}"`,
    );
  }
  return hosts;
}
