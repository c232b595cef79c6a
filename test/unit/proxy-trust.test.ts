/**
 * `proxyTrust`: `TRUSTED_PROXIES` believed at any hop, `TRUSTED_OUTER_PROXIES` never as the direct peer, and
 * neither for anything that is not an address (an `X-Forwarded-For` entry is the caller's text).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { proxyTrust } from '../../src/http/proxy-trust.ts';

describe('proxyTrust', () => {
  it("should keep today's forms: false without proxies, the list alone without outer ones", () => {
    expect(proxyTrust([], [])).toBe(false);
    expect(proxyTrust(['127.0.0.1', 'loopback'], [])).toEqual(['127.0.0.1', 'loopback']);
  });

  const trust = proxyTrust(['loopback'], ['10.244.0.0/16', 'fd00::/8']);
  if (typeof trust !== 'function') throw new Error('expected a trust function');

  it('should believe the inner proxies at any hop, IPv4-mapped addresses as their IPv4', () => {
    for (const hop of [0, 1, 5]) {
      expect(trust('127.0.0.1', hop)).toBe(true);
      expect(trust('::1', hop)).toBe(true);
      expect(trust('::ffff:127.0.0.1', hop)).toBe(true);
    }
  });

  it('should believe an outer proxy only past the direct peer', () => {
    expect(trust('10.244.3.7', 0)).toBe(false);
    expect(trust('10.244.3.7', 1)).toBe(true);
    expect(trust('::ffff:10.244.3.7', 2)).toBe(true);
    expect(trust('fd12::1', 0)).toBe(false);
    expect(trust('fd12::1', 1)).toBe(true);
    expect(trust('10.245.0.1', 1)).toBe(false);
  });

  it('should believe no text that is not an address, at any hop', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }).filter((text) => !/^[\d.:a-fA-F]+$/.test(text)),
        fc.nat(8),
        (text, hop) => {
          expect(trust(text, hop)).toBe(false);
        },
      ),
    );
  });
});
