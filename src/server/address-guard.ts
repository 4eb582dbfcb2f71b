import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses the service must not be made to fetch from (SSRF): loopback, private, link-local,
 * carrier-grade NAT, multicast, reserved and unspecified ranges, in IPv4 and IPv6.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    // IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged by its IPv4 address.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? BLOCKED.check(mapped[1]!, 'ipv4') : BLOCKED.check(address, 'ipv6');
  }
  return false;
}

/** Thrown (and answered with 400) for a URL whose host is or resolves to a refused address. */
export class PrivateAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      `${host} is a private, loopback or link-local address (${address}); start the service with --allow-private-addresses to allow it`,
    );
  }
}

/** Resolves `host` and throws PrivateAddressError if any of its addresses is refused. */
export async function assertPublicHost(host: string): Promise<void> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) {
    if (isPrivateAddress(bare)) throw new PrivateAddressError(host, bare);
    return;
  }
  const addresses = await new Promise<LookupAddress[]>((done, fail) =>
    dnsLookup(bare, { all: true }, (error, found) => (error ? fail(error) : done(found))),
  );
  const refused = addresses.find((a) => isPrivateAddress(a.address));
  if (refused) throw new PrivateAddressError(host, refused.address);
}

/**
 * A `lookup` for the fetch client that refuses private addresses at connection time too, so
 * that a redirect or a DNS change cannot lead a fetch into the private network.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as LookupAddress[];
    const refused = list.find((a) => isPrivateAddress(a.address));
    if (refused) {
      const denied = Object.assign(
        new Error(`refused to connect to ${hostname} (${refused.address}): a private address`),
        { code: 'EPRIVATEADDRESS' },
      );
      return callback(denied, '', 0);
    }
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
