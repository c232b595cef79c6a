/**
 * The list of dead sessions: tokens logged out, or whose upstream token the upstream rejected. Keyed by the
 * token's id (`jti`) and kept until the token's own expiry (after that the token is refused anyway). Held in
 * this process (`revocation-ledger.ts`, which never drops an unexpired entry), and in Redis when one is
 * configured, with the token's remaining lifetime as TTL, so that every replica honours a logout.
 *
 * A Redis outage must not become a login outage: while Redis cannot be read, only this replica's own list is
 * consulted (a logout made on another replica during the outage is honoured there and in Redis once
 * written, not here), and the failure is reported.
 */
import type { Redis } from 'ioredis';
import { createRevocationLedger, type LedgerSession } from './revocation-ledger.ts';

/** Why a genuine, unexpired session is dead. */
export type DeadSessionReason = 'revoked' | 'rejected_by_upstream';

/** Options of {@link createSessionRevocations}. */
export interface SessionRevocationsOptions {
  /** Shared store (`REDIS_URL`); the list stays in this process without it. */
  redis?: Redis | undefined;
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
  /** Told when Redis fails (the local list still answers). */
  onStoreError?: (error: unknown) => void;
}

/** See {@link createSessionRevocations}. */
export interface SessionRevocations {
  /** Why `session` is dead, or `undefined` when it is not on the list. Never throws. */
  reasonOf(session: LedgerSession): Promise<DeadSessionReason | undefined>;
  /** Puts `session` on the list until its expiry. Never throws. */
  revoke(session: LedgerSession, reason: DeadSessionReason): Promise<void>;
  /** Entries held in this process (tokens and per-user cut-offs). */
  localSize(): number;
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
  const { redis } = options;

  return {
    async reasonOf(session) {
      const known = local.reasonOf(session);
      if (known !== undefined || redis === undefined) return known;
      try {
        const stored = await redis.get(`${prefix}:${session.tokenId}`);
        return stored !== null && REASONS.has(stored) ? (stored as DeadSessionReason) : undefined;
      } catch (error) {
        options.onStoreError?.(error);
        return undefined;
      }
    },

    async revoke(session, reason) {
      const ttlMillis = Math.ceil(session.expiresAtSeconds * 1000 - now());
      if (ttlMillis <= 0) return;
      local.revoke(session, reason);
      if (redis === undefined) return;
      try {
        await redis.set(`${prefix}:${session.tokenId}`, reason, 'PX', ttlMillis);
      } catch (error) {
        options.onStoreError?.(error);
      }
    },

    localSize: () => local.size(),
  };
}
