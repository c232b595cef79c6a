/**
 * The login limiter's counters in total (`LOGIN_MAX_TRACKED_COUNTERS`): a flood of failures from many
 * addresses on invented accounts stops adding counters at the cap, and then nothing is dropped (a block
 * made before holds), a known device is counted and never locked out by the flood, guessing one account
 * from ever new addresses is still blocked (its overflow slot), and a login from a new address is not
 * refused because of the flood.
 */
import { describe, expect, it, vi } from 'vitest';
import { createCounterLedger } from '../../src/auth/counter-ledger.ts';
import { createLoginLimiter, type LoginAttempt, type LoginLimiter } from '../../src/auth/login-limiter.ts';

const MAX = 100;

function limiter(maxFailuresPerIp = 100) {
  return createLoginLimiter({
    maxConsecutiveFailures: 3,
    blockSeconds: 60,
    maxFailuresPerUser: 5,
    maxFailuresPerIp,
    maxTrackedCounters: MAX,
  });
}

/** One refused login: its reservation kept as a failure; answers the block it started (0 when refused before). */
async function recordFailure(guard: LoginLimiter, attempt: LoginAttempt): Promise<number> {
  return (await guard.reserve(attempt)).failed();
}

/** Failures on invented accounts from `count` distinct IPv6 addresses. */
async function flood(guard: ReturnType<typeof limiter>, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await recordFailure(guard, { account: `n.invented${i}`, clientIp: `2001:db8::${i.toString(16)}` });
  }
}

describe('createCounterLedger', () => {
  it('should count each counter until its end and forget it then', () => {
    let now = 0;
    const ledger = createCounterLedger(() => now);
    ledger.add(1_000);
    ledger.add(1_000);
    now = 500;
    ledger.add(1_000);
    ledger.add(86_400_000);
    expect(ledger.size()).toBe(4);
    now = 1_000;
    expect(ledger.size()).toBe(2);
    now = 1_500;
    expect(ledger.size()).toBe(1);
  });
});

describe('the login limiter in total', () => {
  it('should stop adding counters at LOGIN_MAX_TRACKED_COUNTERS however many addresses fail', async () => {
    const guard = limiter();
    await flood(guard, 2_000);
    // One failure may add its few counters past the line it found below it.
    expect(guard.trackedCounters()).toBeGreaterThan(MAX - 5);
    expect(guard.trackedCounters()).toBeLessThanOrEqual(MAX + 4);
  });

  it('should keep a block made before the table filled', async () => {
    const guard = limiter();
    const attacker: LoginAttempt = { account: 'n.victim', clientIp: '203.0.113.7' };
    for (let i = 0; i < 3; i++) await recordFailure(guard, attacker);
    expect(await guard.retryAfterSeconds(attacker)).toBeGreaterThan(0);
    await flood(guard, 2_000);
    expect(await guard.retryAfterSeconds(attacker)).toBeGreaterThan(0);
  });

  it('should count a known device and never lock it out for the flood', async () => {
    const guard = limiter();
    await flood(guard, 2_000);
    const device: LoginAttempt = { account: 'n.owner', clientIp: '198.51.100.1', deviceId: 'd1' };
    expect(await guard.retryAfterSeconds(device)).toBe(0);
    await recordFailure(guard, device);
    await recordFailure(guard, device);
    expect(await guard.retryAfterSeconds(device)).toBe(0);
    await recordFailure(guard, device);
    expect(await guard.retryAfterSeconds(device)).toBeGreaterThan(0);
  });

  it('should still block guessing one account from ever new addresses once full, and not a login elsewhere', async () => {
    const guard = limiter();
    await flood(guard, 2_000);
    const before = guard.trackedCounters();
    for (let i = 0; i < 5; i++) {
      await recordFailure(guard, { account: 'n.fresh-victim', clientIp: `2001:db8:1::${i}` });
    }
    expect(guard.trackedCounters()).toBeLessThanOrEqual(before);
    expect(await guard.retryAfterSeconds({ account: 'n.fresh-victim', clientIp: '2001:db8:2::1' })).toBe(60);
    // An account in another slot, from an address never seen: the flood refuses it nothing.
    expect(await guard.retryAfterSeconds({ account: 'n.someone', clientIp: '192.0.2.44' })).toBe(0);
  });

  it('should block one address spraying many accounts once full, whether its counter existed or not', async () => {
    const guard = limiter(10);
    const known: LoginAttempt = { account: 'n.first', clientIp: '203.0.113.9' };
    await recordFailure(guard, known);
    await flood(guard, 2_000);
    for (const clientIp of ['203.0.113.9', '2001:db8:5::1']) {
      let blocked = 0;
      for (let i = 0; i < 50 && blocked === 0; i++) {
        // A fresh address of the same /64 each time counts as the same network.
        const ip = clientIp.includes(':') ? `2001:db8:5::${(i + 1).toString(16)}` : clientIp;
        blocked = await recordFailure(guard, { account: `n.spray${clientIp}${i}`, clientIp: ip });
      }
      expect(blocked).toBe(86_400);
      expect(await guard.retryAfterSeconds({ account: 'n.other', clientIp })).toBe(86_400);
    }
  });

  it('should release a counter a successful login deletes', async () => {
    const guard = limiter();
    const attempt: LoginAttempt = { account: 'n.typo', clientIp: '192.0.2.9' };
    await recordFailure(guard, attempt);
    const before = guard.trackedCounters();
    await (await guard.reserve(attempt)).succeeded();
    expect(guard.trackedCounters()).toBe(before - 1);
  });
});

describe('overflow slots', () => {
  it('should not be computable from the account name alone (a secret of the process)', async () => {
    const accounts = Array.from({ length: 64 }, (_, i) => `n.account${i}`);
    const first = (await import('../../src/auth/overflow-slot.ts')).slotOf;
    vi.resetModules();
    const second = (await import('../../src/auth/overflow-slot.ts')).slotOf;
    expect(second).not.toBe(first);
    const differing = accounts.filter((account) => first(account) !== second(account));
    expect(differing.length).toBeGreaterThan(48);
  });
});

describe('the per-address budget of an IPv6 host', () => {
  it('should count the addresses of one /64 as one client: its distinct accounts, and the counters it makes', async () => {
    const guard = limiter(3);
    // Three accounts fail, each from another address of one /64 (a host picks any of them for free).
    for (let i = 1; i <= 3; i++) {
      await recordFailure(guard, { account: `n.account${i}`, clientIp: `2001:db8:0:7::${i.toString(16)}` });
    }
    const counters = guard.trackedCounters();
    // A fourth account from a fifth address of that /64 is refused before any guess: the network's budget.
    const blocked = await guard.reserve({ account: 'n.account4', clientIp: '2001:db8:0:7::ff' });
    expect(blocked.refusedForSeconds).toBeGreaterThan(0);
    expect(guard.trackedCounters()).toBe(counters);
    // Another /64 is another client.
    const other = await guard.reserve({ account: 'n.account4', clientIp: '2001:db8:0:8::1' });
    expect(other.refusedForSeconds).toBe(0);
    await other.released();
  });
});
