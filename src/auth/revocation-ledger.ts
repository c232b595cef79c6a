/**
 * This process's list of dead sessions, which never forgets one while its token lives. A list that drops
 * its oldest entry when full can be flushed: one account logging in and out a few hundred times a second
 * pushes a victim's logout out, and the stolen token opens again. Here nothing unexpired is ever dropped;
 * memory is bounded by the accounts instead:
 *
 * - each user (the account: `user-key.ts`, an identity the upstream vouched for) holds at most `maxPerUser`
 *   entries. One more and the user's entries are folded into one cut-off: every token of that user issued
 *   before its newest revoked one is dead (its other sessions end too: the cost falls on the account that
 *   logged out so often, and only on it). Tokens issued in that same second stay single entries, so a
 *   login right after still works; should one second alone hold more than `maxPerUser`, the cut-off
 *   takes that second too;
 * - all users together hold at most `maxEntries`; beyond it the user holding the most is folded the same
 *   way (which takes `maxEntries / maxPerUser` accounts logging out at full speed to reach), but only a
 *   user holding more than the others on average: a user whose own logouts did not fill the list more than
 *   anyone's is never folded for theirs. When every user holds as many as the others (a list of single
 *   logouts of many accounts), the list passes `maxEntries` by one entry per new such user instead, until
 *   one of them logs out again and holds more than the rest.
 *
 * An entry lives until its token's expiry, a cut-off until the expiry of the newest token it covers.
 */
import { userKeyOf, type AccountHolder } from './user-key.ts';

/** What the ledger needs to know of a session (its claims carry all of it). */
export interface LedgerSession extends AccountHolder {
  tokenId: string;
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
  /**
   * Records the session as dead until its expiry; answers the folds it caused (each user's cut-off and the
   * single entries it replaced), so that a shared store can replace them too.
   */
  revoke(session: LedgerSession, reason: Reason): Fold[];
  /** The cut-offs still covering live tokens (to write them to a store that lost them). */
  cutOffs(): Generator<Fold>;
  /** Entries held (single tokens and cut-offs), for tests and metrics. */
  size(): number;
  /** The single entries whose token still lives (to write them to a store that lost them); not the cut-offs. */
  unexpired(): Generator<UnexpiredEntry<Reason>>;
}

/** A user's entries folded into one cut-off: tokens of `ownerKey` issued before `cutOffSeconds` are dead. */
export interface Fold {
  /** The user (`userKeyOf`). */
  ownerKey: string;
  cutOffSeconds: number;
  /** When the newest token it covers expires. */
  untilSeconds: number;
  /** The single entries it replaced (their tokens' ids). */
  replaced: string[];
}

/** One listed token, as {@link RevocationLedger.unexpired} answers it. */
export interface UnexpiredEntry<Reason> {
  tokenId: string;
  reason: Reason;
  expiresAtSeconds: number;
}

interface Entry<Reason> {
  owner: Owner;
  reason: Reason;
  issuedAtSeconds: number;
  /** In seconds: a small integer, stored inline (milliseconds would take a heap number per entry). */
  expiresAtSeconds: number;
}

interface Owner {
  key: string;
  /** Single entries held. */
  count: number;
  /** Tokens issued before this second are dead (0: none). */
  cutOffSeconds: number;
  cutOffUntilSeconds: number;
}

/** Sweeps of expired entries happen when the list has doubled since the last one (amortised O(1)). */
const FIRST_SWEEP_AT = 1_024;

/** Creates an empty ledger. */
export function createRevocationLedger<Reason>(
  options: RevocationLedgerOptions<Reason>,
): RevocationLedger<Reason> {
  const { maxPerUser, maxEntries } = options;
  const nowSeconds = () => options.now() / 1000;
  const entries = new Map<string, Entry<Reason>>();
  const owners = new Map<string, Owner>();
  let nextSweepAt = FIRST_SWEEP_AT;

  // The account, whichever name it logged in with: a second name is no second quota. Sealed at login, so
  // a token's owner never changes while it lives (a cut-off always finds the tokens it covers).
  const ownerKeyOf = (session: LedgerSession) => userKeyOf(session);

  function forget(tokenId: string, entry: Entry<Reason>): void {
    entries.delete(tokenId);
    const { owner } = entry;
    owner.count -= 1;
    if (owner.count === 0 && owner.cutOffUntilSeconds <= nowSeconds()) owners.delete(owner.key);
  }

  function sweep(): void {
    const at = nowSeconds();
    for (const [tokenId, entry] of entries) if (entry.expiresAtSeconds <= at) forget(tokenId, entry);
    for (const [key, owner] of owners) {
      if (owner.count === 0 && owner.cutOffUntilSeconds <= at) owners.delete(key);
    }
    nextSweepAt = Math.max(FIRST_SWEEP_AT, entries.size * 2);
  }

  /**
   * Replaces the owner's entries by a cut-off at its newest revoked token (see the module comment). Scans
   * the whole list: it happens at most once per `maxPerUser` revocations of a user, so it costs each
   * revocation `maxEntries / maxPerUser` steps at most, and saves a per-user index's memory.
   */
  function fold(owner: Owner, takeNewestSecond: boolean): Fold {
    let newest = 0;
    let sameSecond = 0;
    let until = owner.cutOffUntilSeconds;
    for (const entry of entries.values()) {
      if (entry.owner !== owner) continue;
      if (entry.issuedAtSeconds > newest) [newest, sameSecond] = [entry.issuedAtSeconds, 0];
      if (entry.issuedAtSeconds === newest) sameSecond += 1;
      until = Math.max(until, entry.expiresAtSeconds);
    }
    // More than the share within one second (or nothing older to fold): the cut-off takes that second too.
    const cutOff = takeNewestSecond || sameSecond > maxPerUser ? newest + 1 : newest;
    owner.cutOffSeconds = Math.max(owner.cutOffSeconds, cutOff);
    owner.cutOffUntilSeconds = until;
    const replaced: string[] = [];
    for (const [tokenId, entry] of entries) {
      if (entry.owner === owner && entry.issuedAtSeconds < owner.cutOffSeconds) {
        forget(tokenId, entry);
        replaced.push(tokenId);
      }
    }
    owners.set(owner.key, owner);
    return { ownerKey: owner.key, cutOffSeconds: owner.cutOffSeconds, untilSeconds: until, replaced };
  }

  /** Users holding single entries now. */
  function holders(): number {
    let holding = 0;
    for (const owner of owners.values()) if (owner.count > 0) holding += 1;
    return holding;
  }

  function heaviest(): Owner | undefined {
    let found: Owner | undefined;
    for (const owner of owners.values()) if (found === undefined || owner.count > found.count) found = owner;
    return found;
  }

  function coveredByCutOff(session: LedgerSession): boolean {
    const owner = owners.get(ownerKeyOf(session));
    return (
      owner !== undefined &&
      session.issuedAtSeconds < owner.cutOffSeconds &&
      owner.cutOffUntilSeconds > nowSeconds()
    );
  }

  return {
    reasonOf(session) {
      const entry = entries.get(session.tokenId);
      if (entry !== undefined) {
        if (entry.expiresAtSeconds > nowSeconds()) return entry.reason;
        forget(session.tokenId, entry);
      }
      return coveredByCutOff(session) ? options.cutOffReason : undefined;
    },

    revoke(session, reason) {
      const { tokenId, issuedAtSeconds, expiresAtSeconds } = session;
      const folds: Fold[] = [];
      if (expiresAtSeconds <= nowSeconds() || entries.has(tokenId) || coveredByCutOff(session)) return folds;
      const key = ownerKeyOf(session);
      let owner = owners.get(key);
      if (owner === undefined) {
        owner = { key, count: 0, cutOffSeconds: 0, cutOffUntilSeconds: 0 };
        owners.set(key, owner);
      }
      entries.set(tokenId, { owner, reason, issuedAtSeconds, expiresAtSeconds });
      owner.count += 1;
      if (owner.count > maxPerUser) folds.push(fold(owner, false));
      if (entries.size >= nextSweepAt || entries.size > maxEntries) sweep();
      while (entries.size > maxEntries) {
        const heavy = heaviest();
        // Only one holding more than the average of the users holding entries (see the module comment).
        if (heavy === undefined || heavy.count * holders() <= entries.size) break;
        const before = heavy.count;
        folds.push(fold(heavy, false));
        // Every entry left is of its newest second: end that second too rather than drop anything.
        if (heavy.count === before) folds.push(fold(heavy, true));
      }
      return folds;
    },

    *cutOffs() {
      const at = nowSeconds();
      for (const owner of owners.values()) {
        if (owner.cutOffSeconds > 0 && owner.cutOffUntilSeconds > at) {
          yield {
            ownerKey: owner.key,
            cutOffSeconds: owner.cutOffSeconds,
            untilSeconds: owner.cutOffUntilSeconds,
            replaced: [],
          };
        }
      }
    },

    size: () => entries.size + [...owners.values()].filter((owner) => owner.cutOffSeconds > 0).length,

    *unexpired() {
      const at = nowSeconds();
      for (const [tokenId, { reason, expiresAtSeconds }] of entries) {
        if (expiresAtSeconds > at) yield { tokenId, reason, expiresAtSeconds };
      }
    },
  };
}
