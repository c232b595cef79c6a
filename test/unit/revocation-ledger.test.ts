/**
 * The in-process revocation list never forgets an unexpired revocation, whatever the mix of users and
 * logouts, and holds a bounded number of entries.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRevocationLedger, type LedgerSession } from '../../src/auth/revocation-ledger.ts';

const TTL_SECONDS = 100;

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
          let clock = 1_000_000;
          const ledger = createRevocationLedger({
            maxPerUser,
            maxEntries,
            cutOffReason: 'revoked',
            now: () => clock * 1000,
          });
          const revoked: LedgerSession[] = [];
          events.forEach(({ user, gap }, i) => {
            clock += gap;
            const session = {
              tokenId: `t${i}`,
              username: user,
              applicationCode: 'app',
              issuedAtSeconds: clock,
              expiresAtSeconds: clock + TTL_SECONDS,
            };
            ledger.revoke(session, 'revoked');
            revoked.push(session);
            for (const earlier of revoked) {
              if (earlier.expiresAtSeconds > clock) expect(ledger.reasonOf(earlier)).toBe('revoked');
            }
            // Single tokens up to the total, plus at most one cut-off per user.
            expect(ledger.size()).toBeLessThanOrEqual(maxEntries + 4);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('should leave a token of the folded user issued after its newest logout alive', () => {
    let clock = 1_000_000;
    const ledger = createRevocationLedger({
      maxPerUser: 3,
      maxEntries: 100,
      cutOffReason: 'revoked',
      now: () => clock * 1000,
    });
    const session = (id: string, user = 'a') => ({
      tokenId: id,
      username: user,
      applicationCode: 'app',
      issuedAtSeconds: clock,
      expiresAtSeconds: clock + TTL_SECONDS,
    });
    const unrevokedOld = session('old');
    const victim = session('v', 'victim');
    ledger.revoke(victim, 'revoked');
    for (let i = 0; i < 10; i++) {
      clock += 1;
      ledger.revoke(session(`t${i}`), 'revoked');
    }
    clock += 1;
    const fresh = session('fresh');
    expect(ledger.reasonOf(unrevokedOld)).toBe('revoked');
    expect(ledger.reasonOf(fresh)).toBeUndefined();
    expect(ledger.reasonOf(victim)).toBe('revoked');
    expect(ledger.reasonOf(session('other-user-token', 'b'))).toBeUndefined();
    // Past the newest expiry the cut-off is gone too.
    clock += TTL_SECONDS + 20;
    expect(ledger.reasonOf(unrevokedOld)).toBeUndefined();
  });
});
