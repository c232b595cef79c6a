/**
 * `canonicalAddress`: one spelling per client address before it keys anything, so that IPv4-mapped IPv6,
 * a port, case, leading zeros and uncompressed zeros never make one client many.
 */
import { isIPv6 } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalAddress } from '../../src/client-address/client-address.ts';
import { clientNetwork } from '../../src/client-address/client-network.ts';

const group = fc.integer({ min: 0, max: 0xffff });
const groups = fc.array(group, { minLength: 8, maxLength: 8 });
/** The address as a URL host canonicalizes it (compressed, lower case). */
const compressed = (address: string) => new URL(`http://[${address}]/`).hostname.slice(1, -1);

describe('canonicalAddress', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:1.2.3.4', '1.2.3.4'],
    ['::ffff:102:304', '1.2.3.4'],
    ['0:0:0:0:0:ffff:0102:0304', '1.2.3.4'],
    ['1.2.3.4:999', '1.2.3.4'],
    ['[::ffff:1.2.3.4]:443', '1.2.3.4'],
    [' 1.2.3.4 ', '1.2.3.4'],
    ['2001:DB8:0::1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['[2001:db8::1]:8080', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['::1', '::1'],
    ['::', '::'],
    [undefined, 'unknown'],
    ['unknown', 'unknown'],
  ])('should write %s as %s', (spelled, expected) => {
    expect(canonicalAddress(spelled)).toBe(expected);
  });

  it('should write every spelling of an IPv6 address as the URL host does, lower case', () => {
    fc.assert(
      fc.property(groups, fc.boolean(), fc.boolean(), (values, upper, padded) => {
        const text = values.map((v) => (padded ? v.toString(16).padStart(4, '0') : v.toString(16))).join(':');
        fc.pre(!(values.slice(0, 5).every((v) => v === 0) && values[5] === 0xffff));
        const spelled = upper ? text.toUpperCase() : text;
        const canonical = canonicalAddress(spelled);
        expect(isIPv6(canonical)).toBe(true);
        expect(canonical).toBe(compressed(text));
        expect(canonicalAddress(compressed(text))).toBe(canonical);
      }),
    );
  });

  it('should give the IPv4-mapped form, with or without a port, the network of the address itself', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 1, max: 65_535 }), (ip, port) => {
        for (const spelled of [`::ffff:${ip}`, `${ip}:${port}`, `[::ffff:${ip}]:${port}`]) {
          expect(canonicalAddress(spelled)).toBe(ip);
          expect(clientNetwork(spelled)).toBe(ip);
        }
      }),
    );
  });
});
