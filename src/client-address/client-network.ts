/**
 * Whose share a client connection or request body counts against (`connection-limits.ts`,
 * `body-budget.ts`): an IPv4 address on its own (a /32), but an IPv6 address by its /64, because one host
 * is given a whole /64 and picks any address in it for free, which would otherwise multiply its shares.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { canonicalAddress } from './client-address.ts';

/** IPv6 addresses of one network share their first four groups (a /64). */
const IPV6_NETWORK_GROUPS = 4;

/**
 * The network of `address` (a socket's `remoteAddress` or `request.ip`), however spelled
 * (`client-address.ts`): `a.b.c.d`, or `x:x:x:x::/64`.
 */
export function clientNetwork(address: string | undefined): string {
  const canonical = canonicalAddress(address);
  if (isIPv4(canonical)) return canonical;
  if (isIPv6(canonical)) return `${expandIPv6(canonical).slice(0, IPV6_NETWORK_GROUPS).join(':')}::/64`;
  return canonical;
}

/** The eight groups of a canonical IPv6 address (an embedded IPv4 tail ignored: the prefix is what counts). */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = Math.max(0, 8 - left.length - right.length);
  const groups = tail === undefined ? left : [...left, ...Array<string>(missing).fill('0'), ...right];
  return groups.map((group) => (group.includes('.') ? '0' : (Number.parseInt(group, 16) || 0).toString(16)));
}
