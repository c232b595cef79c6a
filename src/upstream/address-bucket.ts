/**
 * Whose vote a call without an accepted identity is, for the breaker (`spread-breaker.ts`): a login names a
 * user the caller typed, which costs nothing to invent, so it is counted by where it came from instead, and
 * by network rather than by address, because one host owns many addresses (an IPv6 host a whole /64, a
 * cloud account a run of IPv4 addresses). The buckets are few per network an attacker controls and every
 * address of a network lands in the same one.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** IPv4 addresses of one bucket share their first three octets (a /24). */
const IPV4_PREFIX_OCTETS = 3;
/** IPv6 addresses of one bucket share their first three groups (a /48, the usual site allocation). */
const IPV6_PREFIX_GROUPS = 3;

/**
 * The bucket of `address` (as Fastify's `request.ip` gives it): `ipv4:a.b.c.0/24`, `ipv6:x:y:z::/48`, or
 * `address:unknown` for anything else, which then counts as one source together.
 */
export function addressBucket(address: string | undefined): string {
  if (address === undefined) return 'address:unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const v4 = mapped ?? address;
  if (isIPv4(v4)) return `ipv4:${v4.split('.').slice(0, IPV4_PREFIX_OCTETS).join('.')}.0/24`;
  if (isIPv6(address)) return `ipv6:${expandIPv6(address).slice(0, IPV6_PREFIX_GROUPS).join(':')}::/48`;
  return 'address:unknown';
}

/** The eight groups of an IPv6 address (zone and embedded IPv4 tail ignored: the prefix is what counts). */
export function expandIPv6(address: string): string[] {
  const bare = address.split('%')[0] ?? address;
  const [head = '', tail] = bare.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = Math.max(0, 8 - left.length - right.length);
  const groups = tail === undefined ? left : [...left, ...Array<string>(missing).fill('0'), ...right];
  return groups.map((group) => (group.includes('.') ? '0' : (Number.parseInt(group, 16) || 0).toString(16)));
}
