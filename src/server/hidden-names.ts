import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { RobotsClientOptions } from '../fetch/index.ts';

type AddressFilter = NonNullable<RobotsClientOptions['allowAddress']>;

/**
 * The service's name lookup when it may connect to public addresses only: a name that
 * resolves to an address it may not connect to fails exactly as a name that does not resolve
 * at all, with one error for both. A stranger asking about `db.corp.internal` (directly, or
 * through a robots.txt that redirects there) then learns nothing about the network behind the
 * service: not the address (never said), and not whether the name exists.
 */
export function hideRefusedNames(
  allowAddress: AddressFilter,
  underlying: LookupFunction = systemLookup as unknown as LookupFunction,
): LookupFunction {
  return (hostname, options, callback) => {
    const all = (options as { all?: boolean }).all === true;
    const answer = callback as unknown as (
      error: NodeJS.ErrnoException | null,
      address: LookupAddress[] | string,
      family?: number,
    ) => void;
    underlying(hostname, { ...options, all: true }, (error, found) => {
      const addresses = found as unknown as LookupAddress[] | undefined;
      if (error || !addresses?.length || addresses.some((a) => !allowAddress(a.address))) {
        const hidden = new Error(
          `${hostname} does not resolve to an address this service may connect to`,
        );
        return answer(Object.assign(hidden, { code: 'ENOTFOUND' }), all ? [] : '', 0);
      }
      if (all) return answer(null, addresses);
      answer(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
