/**
 * The list of dead sessions: tokens logged out, or whose upstream token the upstream rejected. Keyed by the
 * token's id (`jti`) and kept until the token's own expiry (after that the token is refused anyway). Held in
 * this process (`revocation-ledger.ts`, which never drops an unexpired entry), and in Redis when one is
 * configured, with the token's remaining lifetime as TTL, so that every replica honours a logout.
 *
 * A Redis outage must not become a login outage: while Redis cannot be read (away, frozen, bypassed by its
 * guard), only this replica's own list is consulted (a logout made on another replica during the outage is
 * honoured there, and here once that replica has written it to Redis). A revocation Redis did not take is
 * never lost: this replica holds it, and `revocation-sync.ts` writes it when Redis takes writes again, and
 * writes the whole list again into a Redis that lost its data.
 */
import { createRevocationLedger, type LedgerSession } from './revocation-ledger.ts';
import { createRevocationSync, type RefillReport } from './revocation-sync.ts';
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
          now,
          onRefill: options.onRefill,
          maxUnsent: options.maxLocalEntries,
        });

  return {
    async reasonOf(session) {
      const known = local.reasonOf(session);
      if (known !== undefined || guard === undefined) return known;
      try {
        const stored = await guard.run((redis) => redis.get(`${prefix}:${session.tokenId}`), 'read');
        return stored !== null && REASONS.has(stored) ? (stored as DeadSessionReason) : undefined;
      } catch {
        // Redis unreadable: this replica's list has answered (the guard logs the outage, once).
        return undefined;
      }
    },

    async revoke(session, reason) {
      const ttlMillis = Math.ceil(session.expiresAtSeconds * 1000 - now());
      if (ttlMillis <= 0) return;
      local.revoke(session, reason);
      await sync?.write(session.tokenId, reason, ttlMillis);
    },

    localSize: () => local.size(),
    unshared: () => sync?.unshared() ?? 0,
    close() {
      sync?.close();
    },
  };
}
