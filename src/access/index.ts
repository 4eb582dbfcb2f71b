/**
 * Who may call repkit's HTTP endpoints, the service and `repkit mcp --http`, read one way for
 * both: the Host names answered (so that a web page cannot DNS-rebind a name of its own onto
 * a loopback endpoint) and the bearer token.
 */
import { timingSafeEqual } from 'node:crypto';

/** The names every endpoint answers for, whatever else is listed. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The Host header values answered, lower-cased: the loopback names and `given` (names or
 * `name:port`), or without `given` the address listened on; undefined means any: `*` given,
 * or no list while listening on every address (whose names only the operator knows).
 */
export function allowedHostSet(
  given: readonly string[] | undefined,
  listenHost: string,
): ReadonlySet<string> | undefined {
  if (given?.includes('*')) return undefined;
  const hosts = new Set(LOOPBACK_NAMES);
  if (given) {
    for (const host of given) hosts.add(host.toLowerCase());
    return hosts;
  }
  const listen = listenHost.toLowerCase();
  if (isWildcard(listen)) return undefined;
  hosts.add(listen.includes(':') && !listen.startsWith('[') ? `[${listen}]` : listen);
  return hosts;
}

/** Whether a request with this Host header is answered (`allowed` from `allowedHostSet`). */
export function answersHost(
  allowed: ReadonlySet<string> | undefined,
  hostHeader: string | undefined,
): boolean {
  if (allowed === undefined) return true;
  const host = (hostHeader ?? '').toLowerCase();
  return allowed.has(host) || allowed.has(hostName(host));
}

/** The message of the 421 for a Host that is not answered. */
export function misdirectedMessage(hostHeader: string | undefined, what: string): string {
  return `${what} does not answer for the host ${JSON.stringify((hostHeader ?? '').toLowerCase())} (see --allowed-hosts)`;
}

/** Whether `host` means every address of the machine. */
export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '' || host === '[::]';
}

/**
 * A test of `Authorization` headers against `token`: `Bearer <token>`, compared in constant
 * time.
 */
export function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = Buffer.from(token);
  return (authorization) => {
    if (typeof authorization !== 'string') return false;
    const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (given === undefined) return false;
    const bytes = Buffer.from(given);
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };
}

/** The 401's `WWW-Authenticate` header and message, where the token is missing or wrong. */
export const UNAUTHORIZED = {
  challenge: 'Bearer realm="repkit"',
  message: 'send Authorization: Bearer <token>',
} as const;

/** `name` of `name:port` (and `[v6]` of `[v6]:port`). */
function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

export { drainOf, DRAIN_GRACE_MS, type Drain } from './drain.ts';
