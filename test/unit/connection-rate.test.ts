/**
 * Each address's share of new connections (`connection-rate.ts`) on a clock the test moves: a burst of the
 * address's whole share, then one token each `1 / perSecond` seconds; other addresses untouched; and the
 * buckets kept bounded however many addresses come.
 */
import { describe, expect, it } from 'vitest';
import { createConnectionRate } from '../../src/http/capacity/connection-rate.ts';

describe('createConnectionRate', () => {
  let clock = 0;
  const rate = (maxAddresses = 100) =>
    createConnectionRate({ perSecond: 10, burst: 4, maxAddresses, now: () => clock });

  it('should give an address its burst, then a token every 100 ms, and say how long the next one takes', () => {
    clock = 0;
    const shares = rate();
    expect([1, 2, 3, 4].map(() => shares.take('a'))).toEqual([0, 0, 0, 0]);
    expect(shares.take('a')).toBe(100);
    expect(shares.waitOf('a')).toBe(100);
    clock = 60;
    expect(shares.waitOf('a')).toBe(40);
    expect(shares.take('b')).toBe(0);
    clock = 100;
    expect(shares.take('a')).toBe(0);
    expect(shares.take('a')).toBe(100);
    // Never more than the burst, however long it rested.
    clock = 100_000;
    expect([1, 2, 3, 4, 5].map(() => shares.take('a'))).toEqual([0, 0, 0, 0, 100]);
  });

  it('should keep only addresses whose bucket is not full, and at most maxAddresses', () => {
    clock = 0;
    const shares = rate(3);
    for (const address of ['a', 'b', 'c', 'd', 'e']) shares.take(address);
    expect(shares.size()).toBe(3);
    // A bucket is full 400 ms after its last token was taken (4 tokens at 10 a second): forgotten then.
    clock = 399;
    shares.take('f');
    expect(shares.size()).toBe(3);
    clock = 401;
    shares.take('g');
    expect(shares.size()).toBe(2);
  });
});
