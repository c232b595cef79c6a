/**
 * The list of dead sessions: tokens logged out, or whose upstream token the upstream rejected. Keyed by the
 * token's id (`jti`) and kept until the token's own expiry (after that the token is refused anyway). Held in
 * this process (`revocation-ledger.ts`, which never drops an unexpired entry), and in Redis when one is
 * configured, with the token's remaining lifetime as TTL, so that every replica honours a logout.
 *
 * A Redis outage must not become a login outage: while Redis cannot be read (away, frozen, bypassed by its
 * guard), only this replica's own list is consulted (a logout made on another replica during the outage is
 * honoured there, and here once that replica has written it to Redis). A revocation Redis did not take is
 * never lost: this replica holds it, and `redis/revocation-sync.ts` writes it when Redis takes writes again, and
 * writes the whole list again into a Redis that lost its data.
 */
import { createRevocationLedger, type LedgerSession } from './revocation-ledger.ts';
import { createRevocationSync, cutOffKey, type RefillReport } from './redis/revocation-sync.ts';
import { userKeyOf } from './user-key.ts';
import type { RedisGuard } from './redis/redis-guard.ts';

/** Why a genuine, unexpired session is dead. */
export type DeadSessionReason = 'revoked' | 'rejected_by_upstream';

/** Options of {@link createSessionRevocations}. */
export interface SessionRevocationsOptions {
  /** Shared store (`REDIS_URL`), behind its guard; the list stays in this process without it. */
  redis?: RedisGuard | undefined;
  /** Prefix of the store's keys. Default `session_dead`. */
  keyPrefix?: string;
  /**
   * Dead sessions one user may have listed in this process before they are folded into "every session of
   * this user issued before its newest logout" (`SESSION_REVOCATIONS_PER_USER`).
   */
  maxEntriesPerUser: number;
  /** Entries all users together may hold here (`SESSION_REVOCATIONS_MAX`). */
  maxLocalEntries: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Told when the list was written to Redis again (after an outage, or into an emptied Redis). */
  onRefill?: (report: RefillReport) => void;
}

/** See {@link createSessionRevocations}. */
export interface SessionRevocations {
  /** Why `session` is dead, or `undefined` when it is not on the list. Never throws. */
  reasonOf(session: LedgerSession): Promise<DeadSessionReason | undefined>;
  /** Puts `session` on the list until its expiry (in Redis now, or as soon as it takes writes). Never throws. */
  revoke(session: LedgerSession, reason: DeadSessionReason): Promise<void>;
  /** Entries held in this process (tokens and per-user cut-offs). */
  localSize(): number;
  /** Revocations Redis has not taken yet (0 without Redis). */
  unshared(): number;
  /** Stops the writes to Redis. */
  close(): void;
}

const REASONS: ReadonlySet<string> = new Set<DeadSessionReason>(['revoked', 'rejected_by_upstream']);

/** Creates the list. */
export function createSessionRevocations(options: SessionRevocationsOptions): SessionRevocations {
  const prefix = options.keyPrefix ?? 'session_dead';
  const now = options.now ?? Date.now;
  const local = createRevocationLedger<DeadSessionReason>({
    maxPerUser: options.maxEntriesPerUser,
    maxEntries: options.maxLocalEntries,
    cutOffReason: 'revoked',
    now,
  });
  const guard = options.redis;
  const sync =
    guard === undefined
      ? undefined
      : createRevocationSync({
          guard,
          keyPrefix: prefix,
          entries: () => local.unexpired(),
          cutOffs: () => local.cutOffs(),
          now,
          onRefill: options.onRefill,
          maxUnsent: options.maxLocalEntries,
        });

  return {
    async reasonOf(session) {
      const known = local.reasonOf(session);
      if (known !== undefined || guard === undefined) return known;
      try {
        // The token's own entry, and its user's cut-off (one round trip).
        const [stored, cutOff] = await guard.run(
          (redis) => redis.mget(`${prefix}:${session.tokenId}`, cutOffKey(prefix, userKeyOf(session))),
          'read',
        );
        if (typeof stored === 'string' && REASONS.has(stored)) return stored as DeadSessionReason;
        return typeof cutOff === 'string' && session.issuedAtSeconds < Number(cutOff) ? 'revoked' : undefined;
      } catch {
        // Redis unreadable: this replica's list has answered (the guard logs the outage, once).
        return undefined;
      }
    },

    async revoke(session, reason) {
      const ttlMillis = Math.ceil(session.expiresAtSeconds * 1000 - now());
      if (ttlMillis <= 0) return;
      const folds = local.revoke(session, reason);
      await sync?.write(session.tokenId, reason, ttlMillis);
      // A user folded here is folded in Redis too: its cut-off shared, the entries it replaced deleted, so
      // one account holds no more of Redis than of this list.
      for (const fold of folds) await sync?.writeCutOff(fold);
    },

    localSize: () => local.size(),
    unshared: () => sync?.unshared() ?? 0,
    close() {
      sync?.close();
    },
  };
}
