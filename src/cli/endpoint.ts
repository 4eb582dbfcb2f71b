/**
 * What the commands that serve over HTTP (`serve`, `mcp --http`) read alike: the Host names
 * answered, the token, why an address cannot be listened on, and the warning for an endpoint
 * open on every address, and a Redis URL.
 */
import { isWildcard } from '../access/index.ts';
import { redactUrl } from '../cache/internal.ts';
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

/**
 * `--token` as given, or else `REPKIT_TOKEN` (empty is unset); undefined when neither is. A
 * token is at least 16 visible ASCII characters: one anyone can guess protects nothing.
 */
export function tokenOf(given: string | undefined): string | undefined {
  const token = given ?? (process.env.REPKIT_TOKEN || undefined);
  if (token !== undefined && !/^[\x21-\x7e]{16,}$/.test(token)) {
    throw new CliError(
      `${given !== undefined ? '--token' : 'REPKIT_TOKEN'} must be at least 16 visible ASCII characters, without spaces`,
    );
  }
  return token;
}

/** `--allowed-hosts` as given, or else `REPKIT_ALLOWED_HOSTS`; undefined when neither is. */
export function allowedHostsOf(given: string[] | undefined): string[] | undefined {
  const fromEnv = process.env.REPKIT_ALLOWED_HOSTS;
  return given ?? (fromEnv ? hostList(fromEnv, 'REPKIT_ALLOWED_HOSTS') : undefined);
}

/**
 * What an operator must change before an endpoint listening on `listenHost` is reachable by
 * others, as one warning line; undefined when it listens on one address or nothing is
 * missing. `rateLimit` is left out where the endpoint has none to set.
 */
export function openEndpointWarning(
  listenHost: string,
  set: { token: boolean; allowedHosts: boolean; rateLimit?: boolean },
): string | undefined {
  if (!isWildcard(listenHost)) return undefined;
  const missing = [
    set.token ? '' : 'no --token: anyone who reaches it may use it',
    set.allowedHosts ? '' : 'no --allowed-hosts: any Host name is answered',
    set.rateLimit === false ? 'no --rate-limit' : '',
  ].filter((m) => m !== '');
  return missing.length > 0
    ? `repkit: warning: listening on every address with ${missing.join('; ')}`
    : undefined;
}

/**
 * A failure to listen on `host:port` as the user's error (exit 2) where it is one: the
 * address in use, refused, or not this machine's; anything else as it was.
 */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  if (error.code === 'EADDRINUSE')
    return new CliError(`cannot listen on ${where}: the address is in use`);
  if (error.code === 'EACCES') return new CliError(`cannot listen on ${where}: permission denied`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return new CliError(`cannot listen on ${where}: no such address on this machine`);
  }
  return error;
}

/** Resolves with the first of SIGINT and SIGTERM the process receives. */
export function signalled(): Promise<string> {
  return new Promise((done) => {
    process.once('SIGINT', () => done('SIGINT'));
    process.once('SIGTERM', () => done('SIGTERM'));
  });
}

/** A redis:// or rediss:// URL, or a one-line error naming where it came from. */
export function redisUrl(value: string, from = '--redis-url'): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // not a URL at all: said below
  }
  if (url?.protocol !== 'redis:' && url?.protocol !== 'rediss:') {
    throw new CliError(`${from} must be a redis:// or rediss:// URL, got "${redactUrl(value)}"`);
  }
  return value;
}
