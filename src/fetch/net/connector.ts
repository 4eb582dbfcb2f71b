import { isIP } from 'node:net';
import type { buildConnector } from 'undici';
import { bareHost, type AddressFilter } from './addresses.ts';
import { RefusedAddressError } from '../errors.ts';
import type { HostResolver } from './resolver.ts';

/**
 * An undici connector that holds the address guard at the socket, for every connection and
 * so for every redirect hop: an IP-literal host is checked before connecting (Node never
 * calls `lookup` for one), a name is resolved through the guarded resolver, and the address
 * the socket actually reached is checked again before any request is written on it.
 */
export function guardedConnector(
  build: typeof buildConnector,
  options: {
    timeoutMs: number;
    resolver: HostResolver;
    allowAddress: AddressFilter;
  },
): buildConnector.connector {
  const connect = build({ timeout: options.timeoutMs, lookup: options.resolver.lookup });
  return (connectOptions, callback) => {
    const host = bareHost(connectOptions.hostname);
    if (isIP(host) && !options.allowAddress(host)) {
      callback(refused(connectOptions.hostname, host), null);
      return;
    }
    connect(connectOptions, (error, socket) => {
      if (error) return callback(error, null);
      const remote = socket!.remoteAddress;
      if (remote === undefined || !options.allowAddress(remote)) {
        socket!.destroy();
        return callback(refused(connectOptions.hostname, remote ?? 'an unknown address'), null);
      }
      callback(null, socket!);
    });
  };
}

function refused(host: string, address: string): Error {
  const error = new RefusedAddressError(host, address);
  return Object.assign(error, { code: error.errno });
}
