/**
 * Whose `X-Forwarded-For` the gateway believes, as Fastify's `trustProxy` takes it: the client address that
 * login protection and the per-address caps count is the nearest hop no believed proxy added.
 *
 * Two lists, because a sidecar has two kinds of proxy in front of it. `TRUSTED_PROXIES` are believed at any
 * hop, the direct peer included: the pod's own proxy on loopback. `TRUSTED_OUTER_PROXIES` are believed only
 * behind one of those, never as the direct peer: an Ingress controller's pod network. Trusting that network
 * outright would also believe any other pod of the cluster that reaches the gateway's port directly (a
 * scraper of `/metrics` is one), which could then name any address as its own: dodge the per-address login
 * limits, or block someone else's address with failed logins.
 */
import { BlockList, isIP } from 'node:net';

/** The named ranges proxy-addr (Fastify) knows, as CIDRs. */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** `entries` (addresses, CIDRs, names; checked by the setting's parser) as one list to check against. */
function blockListOf(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries.flatMap((e) => NAMED_RANGES[e] ?? [e])) {
    const [address = '', bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/** Whether `address` (an IPv4-mapped IPv6 address counts as its IPv4) is in `list`; never for a non-address. */
function holds(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Fastify's `trustProxy` for the two settings: `false` when neither is set, the list itself when only
 * `TRUSTED_PROXIES` is (Fastify's own matching, as before), else a function of the address and its hop (0: the
 * direct peer) that believes an outer proxy only past the first hop.
 */
export function proxyTrust(
  trusted: readonly string[],
  outer: readonly string[],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (outer.length === 0) return trusted.length > 0 ? [...trusted] : false;
  const inner = blockListOf(trusted);
  const behind = blockListOf(outer);
  return (address, hop) => holds(inner, address) || (hop > 0 && holds(behind, address));
}
