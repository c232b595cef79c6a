/**
 * Logins' share of the upstream (`login-share.ts`): per client network and per account, a rate per minute
 * and a number in flight; the tables stay the same size however many addresses log in.
 */
import { describe, expect, it } from 'vitest';
import { createLoginShare, type LoginShare, type LoginShareOptions } from '../../src/auth/login-share.ts';

const OPTIONS: LoginShareOptions = {
  maxPerMinutePerAddress: 6,
  maxPerMinutePerAccount: 3,
  maxConcurrentPerAddress: 2,
  maxConcurrentPerAccount: 1,
};

/** Takes and at once gives back `n` turns; answers how many were granted. */
function startMany(share: LoginShare, n: number, turn: (i: number) => [string, string]): number {
  let granted = 0;
  for (let i = 0; i < n; i++) {
    const taken = share.take(...turn(i));
    if ('release' in taken) {
      granted += 1;
      taken.release();
    }
  }
  return granted;
}

describe('the login share', () => {
  it('should allow LOGIN_MAX_PER_MINUTE_PER_ACCOUNT logins of one account a minute, then say when the minute ends', () => {
    let now = 60_000 * 1000 + 15_000;
    const share = createLoginShare({ ...OPTIONS, now: () => now });
    expect(startMany(share, 10, (i) => [`192.0.2.${i}`, 'n.victim'])).toBe(3);
    expect(share.take('192.0.2.99', 'n.victim')).toEqual({ retryAfterSeconds: 45 });
    expect(startMany(share, 1, () => ['192.0.2.99', 'n.other'])).toBe(1);
    now += 45_000;
    expect(startMany(share, 1, () => ['192.0.2.99', 'n.victim'])).toBe(1);
  });

  it('should allow LOGIN_MAX_PER_MINUTE_PER_ADDRESS logins from one address, an IPv6 /64 being one', () => {
    const share = createLoginShare(OPTIONS);
    expect(startMany(share, 20, (i) => [`2001:db8:0:1::${(i + 1).toString(16)}`, `n.account${i}`])).toBe(6);
    expect(startMany(share, 1, () => ['2001:db8:0:2::1', 'n.someone'])).toBe(1);
  });

  it('should hold logins in flight to LOGIN_MAX_CONCURRENT_PER_ADDRESS and _PER_ACCOUNT, and free a turn given back', () => {
    const share = createLoginShare({ ...OPTIONS, maxPerMinutePerAddress: 100, maxPerMinutePerAccount: 100 });
    const first = share.take('203.0.113.1', 'n.a');
    expect(share.take('203.0.113.2', 'n.a')).toEqual({ retryAfterSeconds: 1 });
    const second = share.take('203.0.113.1', 'n.b');
    expect(share.take('203.0.113.1', 'n.c')).toEqual({ retryAfterSeconds: 1 });
    if (!('release' in first) || !('release' in second)) return expect.fail('expected turns');
    first.release();
    first.release();
    expect('release' in share.take('203.0.113.1', 'n.c')).toBe(true);
    expect(share.take('203.0.113.1', 'n.d')).toEqual({ retryAfterSeconds: 1 });
  });

  it('should count a name’s logins against the account it turns out to belong to: a second name is no second allowance', () => {
    const share = createLoginShare(OPTIONS);
    // Two logins under the mobile number, before anything linked it to the account.
    expect(startMany(share, 2, (i) => [`192.0.2.${i}`, 'n.mobile'])).toBe(2);
    share.carryOver('n.mobile', 'a.account');
    expect(startMany(share, 10, (i) => [`192.0.2.${i + 10}`, 'a.account'])).toBe(1);
  });
});
