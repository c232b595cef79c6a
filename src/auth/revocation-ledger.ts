/**
 * This process's list of dead sessions, which never forgets one while its token lives. A list that drops
 * its oldest entry when full can be flushed: one account logging in and out a few hundred times a second
 * pushes a victim's logout out, and the stolen token opens again. Here nothing unexpired is ever dropped;
 * memory is bounded by the accounts instead:
 *
 * - each user (application and name: an identity the upstream accepted) holds at most `maxPerUser`
 *   entries. One more and the user's entries are folded into one cut-off: every token of that user issued
 *   before its newest revoked one is dead (its other sessions end too: the cost falls on the account that
 *   logged out so often, and only on it). Tokens issued in that same second stay single entries, so a
 *   login right after still works; should one second alone hold more than `maxPerUser`, the cut-off
 *   takes that second too;
 * - all users together hold at most `maxEntries`; beyond it the user holding the most is folded the same
 *   way (which takes `maxEntries / maxPerUser` accounts logging out at full speed to reach).
 *
 * An entry lives until its token's expiry, a cut-off until the expiry of the newest token it covers.
 */

/** What the ledger needs to know of a session (its claims carry all of it). */
export interface LedgerSession {
  tokenId: string;
  username: string;
  applicationCode: string;
  issuedAtSeconds: number;
  expiresAtSeconds: number;
}

/** Options of {@link createRevocationLedger}. */
export interface RevocationLedgerOptions<Reason> {
  /** Entries one user may hold before they are folded into a cut-off. */
  maxPerUser: number;
  /** Entries all users together may hold before the heaviest user is folded. */
  maxEntries: number;
  /** What a cut-off answers for the tokens it covers. */
  cutOffReason: Reason;
  /** Clock, in milliseconds. */
  now: () => number;
}

/** See {@link createRevocationLedger}. */
export interface RevocationLedger<Reason> {
  /** Why the session is dead, or `undefined`. */
  reasonOf(session: LedgerSession): Reason | undefined;
  /** Records the session as dead until its expiry. */
  revoke(session: LedgerSession, reason: Reason): void;
  /** Entries held (single tokens and cut-offs), for tests and metrics. */
  size(): number;
}

interface Entry<Reason> {
  owner: string;
  reason: Reason;
  issuedAtSeconds: number;
  expiresAtMillis: number;
}

interface Owner {
  tokenIds: Set<string>;
  /** Tokens issued before this second are dead (0: none). */
  cutOffSeconds: number;
  cutOffUntilMillis: number;
}

/** Sweeps of expired entries happen when the list has doubled since the last one (amortised O(1)). */
const FIRST_SWEEP_AT = 1_024;

/** Creates an empty ledger. */
export function createRevocationLedger<Reason>(
  options: RevocationLedgerOptions<Reason>,
): RevocationLedger<Reason> {
  const { maxPerUser, maxEntries, now } = options;
  const entries = new Map<string, Entry<Reason>>();
  const owners = new Map<string, Owner>();
  let nextSweepAt = FIRST_SWEEP_AT;

  const ownerOf = (session: LedgerSession) => `${session.applicationCode}\u0000${session.username}`;

  function forget(tokenId: string, entry: Entry<Reason>): void {
    entries.delete(tokenId);
    const owner = owners.get(entry.owner);
    if (owner === undefined) return;
    owner.tokenIds.delete(tokenId);
    if (owner.tokenIds.size === 0 && owner.cutOffUntilMillis <= now()) owners.delete(entry.owner);
  }

  function sweep(): void {
    const at = now();
    for (const [tokenId, entry] of entries) if (entry.expiresAtMillis <= at) forget(tokenId, entry);
    for (const [key, owner] of owners) {
      if (owner.tokenIds.size === 0 && owner.cutOffUntilMillis <= at) owners.delete(key);
    }
    nextSweepAt = Math.max(FIRST_SWEEP_AT, entries.size * 2);
  }

  /** Replaces the owner's entries by a cut-off at its newest revoked token (see the module comment). */
  function fold(key: string, owner: Owner): void {
    let newest = 0;
    let until = owner.cutOffUntilMillis;
    for (const tokenId of owner.tokenIds) {
      const entry = entries.get(tokenId);
      if (entry === undefined) continue;
      newest = Math.max(newest, entry.issuedAtSeconds);
      until = Math.max(until, entry.expiresAtMillis);
    }
    const sameSecond = [...owner.tokenIds].filter((id) => entries.get(id)?.issuedAtSeconds === newest);
    // More than the share within one second: the cut-off takes that second as well.
    const cutOff = sameSecond.length > maxPerUser ? newest + 1 : newest;
    owner.cutOffSeconds = Math.max(owner.cutOffSeconds, cutOff);
    owner.cutOffUntilMillis = until;
    for (const tokenId of [...owner.tokenIds]) {
      const entry = entries.get(tokenId);
      if (entry !== undefined && entry.issuedAtSeconds < owner.cutOffSeconds) forget(tokenId, entry);
    }
    owners.set(key, owner);
  }

  function heaviest(): [string, Owner] | undefined {
    let found: [string, Owner] | undefined;
    for (const pair of owners)
      if (found === undefined || pair[1].tokenIds.size > found[1].tokenIds.size) found = pair;
    return found;
  }

  function coveredByCutOff(session: LedgerSession): boolean {
    const owner = owners.get(ownerOf(session));
    return (
      owner !== undefined && session.issuedAtSeconds < owner.cutOffSeconds && owner.cutOffUntilMillis > now()
    );
  }

  return {
    reasonOf(session) {
      const entry = entries.get(session.tokenId);
      if (entry !== undefined) {
        if (entry.expiresAtMillis > now()) return entry.reason;
        forget(session.tokenId, entry);
      }
      return coveredByCutOff(session) ? options.cutOffReason : undefined;
    },

    revoke(session, reason) {
      const expiresAtMillis = session.expiresAtSeconds * 1000;
      if (expiresAtMillis <= now() || entries.has(session.tokenId) || coveredByCutOff(session)) return;
      const key = ownerOf(session);
      const owner = owners.get(key) ?? {
        tokenIds: new Set<string>(),
        cutOffSeconds: 0,
        cutOffUntilMillis: 0,
      };
      owners.set(key, owner);
      entries.set(session.tokenId, {
        owner: key,
        reason,
        issuedAtSeconds: session.issuedAtSeconds,
        expiresAtMillis,
      });
      owner.tokenIds.add(session.tokenId);
      if (owner.tokenIds.size > maxPerUser) fold(key, owner);
      if (entries.size >= nextSweepAt || entries.size > maxEntries) sweep();
      while (entries.size > maxEntries) {
        const [heavyKey, heavy] = heaviest() ?? [];
        if (heavyKey === undefined || heavy === undefined) break;
        const before = heavy.tokenIds.size;
        fold(heavyKey, heavy);
        // Every entry left is of its newest second: end that second too rather than drop anything.
        if (heavy.tokenIds.size === before) {
          heavy.cutOffSeconds += 1;
          fold(heavyKey, heavy);
        }
      }
    },

    size: () => entries.size + [...owners.values()].filter((owner) => owner.cutOffSeconds > 0).length,
  };
}
