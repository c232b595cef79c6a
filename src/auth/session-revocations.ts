/**
 * The list of dead sessions: tokens logged out, or whose upstream token the upstream rejected. Keyed by the
 * token's id (`jti`) and kept until the token's own expiry (after that the token is refused anyway). Held in
 * this process, and in Redis when one is configured so that every replica honours a logout.
 *
 * A Redis outage must not become a login outage: while Redis cannot be read, only this replica's own list is
 * consulted (a logout made on another replica during the outage is honoured there and in Redis once
 * written, not here), and the failure is reported.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

/** Why a genuine, unexpired session is dead. */
export type DeadSessionReason = 'revoked' | 'rejected_by_upstream';

/** Options of {@link createSessionRevocations}. */
export interface SessionRevocationsOptions {
  /** Shared store (`REDIS_URL`); the list stays in this process without it. */
  redis?: Redis | undefined;
  /** Prefix of the store's keys. Default `session_dead`. */
  keyPrefix?: string;
  /** Most entries kept in this process (oldest dropped first). Default 100_000. */
  maxLocalEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Told when Redis fails (the local list still answers). */
  onStoreError?: (error: unknown) => void;
}

/** See {@link createSessionRevocations}. */
export interface SessionRevocations {
  /** Why the session `tokenId` is dead, or `undefined` when it is not on the list. Never throws. */
  reasonOf(tokenId: string): Promise<DeadSessionReason | undefined>;
  /** Puts `tokenId` on the list until `expiresAtSeconds`. Never throws. */
  revoke(tokenId: string, expiresAtSeconds: number, reason: DeadSessionReason): Promise<void>;
}

const REASONS: ReadonlySet<string> = new Set<DeadSessionReason>(['revoked', 'rejected_by_upstream']);

/** Creates the list. */
export function createSessionRevocations(options: SessionRevocationsOptions = {}): SessionRevocations {
  const prefix = options.keyPrefix ?? 'session_dead';
  const now = options.now ?? Date.now;
  const local = new LRUCache<string, DeadSessionReason>({
    max: options.maxLocalEntries ?? 100_000,
    ttlAutopurge: false,
    perf: { now },
  });
  const { redis } = options;

  return {
    async reasonOf(tokenId) {
      const known = local.get(tokenId);
      if (known !== undefined || redis === undefined) return known;
      try {
        const stored = await redis.get(`${prefix}:${tokenId}`);
        return stored !== null && REASONS.has(stored) ? (stored as DeadSessionReason) : undefined;
      } catch (error) {
        options.onStoreError?.(error);
        return undefined;
      }
    },

    async revoke(tokenId, expiresAtSeconds, reason) {
      const ttlMillis = Math.ceil(expiresAtSeconds * 1000 - now());
      if (ttlMillis <= 0) return;
      local.set(tokenId, reason, { ttl: ttlMillis });
      if (redis === undefined) return;
      try {
        await redis.set(`${prefix}:${tokenId}`, reason, 'PX', ttlMillis);
      } catch (error) {
        options.onStoreError?.(error);
      }
    },
  };
}
