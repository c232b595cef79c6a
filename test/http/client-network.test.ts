/**
 * `clientNetwork`, the key of the per-address connection and body shares: an IPv4 address on its own, an
 * IPv6 address by its /64 however it is spelled (compressed or not, upper or lower case), so one host
 * cannot multiply its shares by picking addresses of its own /64.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../../src/client-address/client-network.ts';

const group = fc.integer({ min: 0, max: 0xffff });
const groups = (length: number) => fc.array(group, { minLength: length, maxLength: length });
const spell = (values: number[]) => values.map((value) => value.toString(16)).join(':');
/** The address as a URL host canonicalizes it (compressed, lower case). */
const compressed = (address: string) => new URL(`http://[${address}]/`).hostname.slice(1, -1);

describe('clientNetwork', () => {
  it('should put every address of a /64 in one network, however spelled', () => {
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), fc.boolean(), (prefix, tailA, tailB, upper) => {
        const a = spell([...prefix, ...tailA]);
        const b = compressed(spell([...prefix, ...tailB]));
        expect(clientNetwork(upper ? a.toUpperCase() : a)).toBe(clientNetwork(b));
      }),
    );
  });

  it('should keep different /64 networks apart', () => {
    fc.assert(
      fc.property(groups(4), groups(4), groups(4), (prefixA, prefixB, tail) => {
        fc.pre(spell(prefixA) !== spell(prefixB));
        expect(clientNetwork(spell([...prefixA, ...tail]))).not.toBe(
          clientNetwork(spell([...prefixB, ...tail])),
        );
      }),
    );
  });

  it('should keep IPv4 addresses apart, the IPv4-mapped form as the address itself', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV4(), (a, b) => {
        expect(clientNetwork(`::ffff:${a}`)).toBe(clientNetwork(a));
        expect(clientNetwork(a) === clientNetwork(b)).toBe(a === b);
      }),
    );
  });
});
