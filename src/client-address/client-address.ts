/**
 * One spelling per client address, before it keys anything (login counters and shares, the per-address
 * caps, the logs' networks). A socket's `remoteAddress` and an `X-Forwarded-For` entry spell one client in
 * many ways: `::ffff:1.2.3.4` (IPv4-mapped, or `::ffff:102:304`), `1.2.3.4:999` and `[2001:db8::1]:443` (a
 * port some proxies add), `2001:DB8:0::1` (case, leading zeros, an uncompressed run of zeros), `fe80::1%eth0`
 * (a zone). Counted as written, each spelling was another client with shares and budgets of its own.
 *
 * IPv4 stays dotted; an IPv4-mapped IPv6 address becomes its IPv4 address; IPv6 is written as RFC 5952 says
 * (lower case, no leading zeros, the longest run of two or more zero groups as `::`), without its zone.
 * Anything else (`unknown`, a name) is kept as it is.
 */
import { isIPv4, isIPv6 } from 'node:net';

const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/;

/** The eight groups of a valid IPv6 address (an embedded IPv4 tail as two groups), without its zone. */
function groupsOf(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** RFC 5952's text of eight groups. */
function ipv6Text(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8;) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** The one spelling of `address` (see the module comment); `unknown` for none. */
export function canonicalAddress(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  let bare = address.trim();
  const bracketed = BRACKETED.exec(bare)?.[1];
  if (bracketed !== undefined) bare = bracketed;
  else bare = IPV4_WITH_PORT.exec(bare)?.[1] ?? bare;
  if (isIPv4(bare)) return bare;
  const withoutZone = bare.split('%')[0] ?? bare;
  if (!isIPv6(withoutZone)) return bare;
  const groups = groupsOf(withoutZone);
  // `::ffff:a.b.c.d`: an IPv4 client on a dual-stack socket.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return ipv6Text(groups);
}
