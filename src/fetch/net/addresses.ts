import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Decides whether a fetch may connect to an IP address (IPv4 or IPv6, as text). */
export type AddressFilter = (address: string) => boolean;

/**
 * Whether `address` is a public unicast address: the only kind a service that fetches URLs
 * from strangers should connect to. Classified by ipaddr.js: an IPv4 address (IPv4-mapped
 * IPv6 included) must be in its `unicast` range, so loopback, private, link-local, CGNAT,
 * `0.0.0.0/8`, benchmarking, documentation, multicast, broadcast and reserved ranges are
 * refused. An IPv6 address must be `unicast` and inside 2000::/3, the only global unicast
 * space: IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo,
 * unique-local, link-local, multicast, documentation and discard ranges are refused, since
 * several of them reach an IPv4 address of the operator's choosing. Text that is not an IP
 * address is not public.
 */
export function isPublicAddress(address: string): boolean {
  const bare = bareHost(address);
  if (!isIP(bare)) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(bare);
  } catch {
    return false;
  }
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv4') return true;
  const first = (parsed as ipaddr.IPv6).parts[0]!;
  return first >= 0x2000 && first <= 0x3fff;
}

/** An IP address that is not public (see `isPublicAddress`); false for text that is not an IP address. */
export function isPrivateAddress(address: string): boolean {
  const bare = bareHost(address);
  return isIP(bare) !== 0 && !isPublicAddress(bare);
}

/** A host without the brackets a URL writes around an IPv6 address (`[::1]` → `::1`). */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** The filter that lets every address through (a crawler inside its own network). */
export const ANY_ADDRESS: AddressFilter = () => true;
