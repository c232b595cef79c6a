/**
 * The in-process revocation list never forgets an unexpired revocation, whatever the mix of users and
 * logouts, and holds a bounded number of entries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRevocationLedger, type LedgerSession } from '../../src/auth/revocation-ledger.ts';

const TTL_SECONDS = 100;

/**
 * A ledger on a clock each test moves itself (`tick`), from second 1,000,000, and a session of `username`
 * issued at the clock's second, expiring TTL_SECONDS later: what every test here starts from.
 */
function ledgerOnClock(maxPerUser: number, maxEntries: number) {
  let clock = 1_000_000;
  const ledger = createRevocationLedger({
    maxPerUser,
    maxEntries,
    cutOffReason: 'revoked',
    now: () => clock * 1000,
  });
  const session = (tokenId: string, username: string): LedgerSession => ({
    tokenId,
    username,
    applicationCode: 'app',
    issuedAtSeconds: clock,
    expiresAtSeconds: clock + TTL_SECONDS,
  });
  const tick = (seconds: number): number => (clock += seconds);
  return { ledger, session, tick };
}

describe('revocation ledger', () => {
  it('should keep every revoked token refused until its expiry, within its bounds', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            user: fc.constantFrom('victim', 'a', 'b', 'c'),
            // Seconds after the previous event; several logouts may share a second.
            gap: fc.nat({ max: 3 }),
          }),
          { maxLength: 400 },
        ),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 8, max: 40 }),
        (events, maxPerUser, maxEntries) => {
          const { ledger, session: sessionOf, tick } = ledgerOnClock(maxPerUser, maxEntries);
          const revoked: LedgerSession[] = [];
          events.forEach(({ user, gap }, i) => {
            const clock = tick(gap);
            const session = sessionOf(`t${i}`, user);
            ledger.revoke(session, 'revoked');
            revoked.push(session);
            for (const earlier of revoked) {
              if (earlier.expiresAtSeconds > clock) expect(ledger.reasonOf(earlier)).toBe('revoked');
            }
            // Single tokens up to the total (past it by one per user while all hold as many), plus at most
            // one cut-off per user.
            expect(ledger.size()).toBeLessThanOrEqual(maxEntries + 4 + 4);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('should leave a token of the folded user issued after its newest logout alive', () => {
    const { ledger, session: sessionOf, tick } = ledgerOnClock(3, 100);
    const session = (id: string, user = 'a') => sessionOf(id, user);
    const unrevokedOld = session('old');
    const victim = session('v', 'victim');
    ledger.revoke(victim, 'revoked');
    for (let i = 0; i < 10; i++) {
      tick(1);
      ledger.revoke(session(`t${i}`), 'revoked');
    }
    tick(1);
    const fresh = session('fresh');
    expect(ledger.reasonOf(unrevokedOld)).toBe('revoked');
    expect(ledger.reasonOf(fresh)).toBeUndefined();
    expect(ledger.reasonOf(victim)).toBe('revoked');
    expect(ledger.reasonOf(session('other-user-token', 'b'))).toBeUndefined();
    // Past the newest expiry the cut-off is gone too.
    tick(TTL_SECONDS + 20);
    expect(ledger.reasonOf(unrevokedOld)).toBeUndefined();
  });

  it('should never fold, for a full list, a user holding no more than the others: only those who filled it', () => {
    const { ledger, session, tick } = ledgerOnClock(100, 10);
    // Each ordinary user has a session still in use, then logs another one out.
    const inUse = Array.from({ length: 12 }, (_, user) => session(`in-use-${user}`, `user${user}`));
    tick(1);
    for (let user = 0; user < 12; user++) ledger.revoke(session(`out-${user}`, `user${user}`), 'revoked');
    // Twelve single logouts of twelve users in a list of ten: nobody holds more than the others.
    for (const token of inUse) expect(ledger.reasonOf(token)).toBeUndefined();
    // One account logs out five times: it holds more than the others, and it alone is folded.
    const attackerInUse = session('attacker-in-use', 'attacker');
    tick(1);
    for (let i = 0; i < 5; i++) ledger.revoke(session(`attacker-${i}`, 'attacker'), 'revoked');
    tick(1);
    ledger.revoke(session('attacker-last', 'attacker'), 'revoked');
    expect(ledger.reasonOf(attackerInUse)).toBe('revoked');
    for (const token of inUse) expect(ledger.reasonOf(token)).toBeUndefined();
    for (let user = 0; user < 12; user++) {
      expect(ledger.reasonOf(session(`out-${user}`, `user${user}`))).toBe('revoked');
    }
  });
});
