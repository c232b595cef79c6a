/**
 * The response cache's entries shared through Redis (`CACHE_REDIS_MAX_BYTES` above 0, with `REDIS_URL`): a
 * replica that misses in its own memory looks in Redis before reading upstream, and each entry a replica
 * stores is written there too, so the replicas warm each other. Keys are the cache's own (hashes carrying the
 * versions: `cache-key.ts`), under `gateway:cache:entry:`; every command goes through the Redis guard (its
 * deadline, its breaker), and a Redis away only means a miss.
 *
 * Redis's memory is bounded here, since that Redis also holds the sessions' revocations and the login
 * counters, which the cache must never crowd out. An entry lives in Redis at most {@link MAX_SHARED_TTL_MINUTES}
 * minutes, and every entry written adds its characters to a counter of the minute it was written in (one for
 * all, one per organization, one per account for `PRIVATE` entries); an entry is written only while the last
 * {@link WINDOW_MINUTES} minutes' counters, which count every entry still alive, stay within the bound and
 * the shares. Replicas storing at the same moment may pass the bound by those few entries.
 */
import type { RedisGuard } from '../auth/redis/redis-guard.ts';

/** An entry as Redis holds it: the text and what its age is told by (a wall clock: replicas share it). */
export interface SharedEntry {
  text: string;
  objectName: string;
  /** `Date.now()` when it was read upstream. */
  storedAtWall: number;
  maxAgeMillis: number;
}

/** One bound a stored entry counts against: the counter's name and its limit in characters. */
export interface SharedShare {
  name: string;
  limit: number;
}

/** The shared entries. */
export interface SharedEntries {
  /** The entry under `key`, or `undefined` (none, or Redis away). */
  get(key: string): Promise<SharedEntry | undefined>;
  /** Writes `entry` for `ttlMillis` (at most {@link MAX_SHARED_TTL_MINUTES}) when every share has room; `false` otherwise. */
  set(key: string, entry: SharedEntry, ttlMillis: number, shares: readonly SharedShare[]): Promise<boolean>;
}

/** The minutes of counters summed: every entry alive was written within them. */
const WINDOW_MINUTES = 10;

/** The longest an entry lives in Redis (a replica keeps its own copy as long as its policy says). */
export const MAX_SHARED_TTL_MINUTES = WINDOW_MINUTES - 1;

const ENTRY_PREFIX = 'gateway:cache:entry:';
const BYTES_PREFIX = 'gateway:cache:bytes:';
const MINUTE = 60_000;

/** Options of {@link createSharedEntries}. */
export interface SharedEntriesOptions {
  redis: RedisGuard;
  /** The wall clock (tests). Default `Date.now`. */
  wallNow?: () => number;
}

function isSharedEntry(value: unknown): value is SharedEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.text === 'string' &&
    typeof entry.objectName === 'string' &&
    typeof entry.storedAtWall === 'number' &&
    typeof entry.maxAgeMillis === 'number'
  );
}

/** Creates the shared entries (see the module comment). */
export function createSharedEntries(options: SharedEntriesOptions): SharedEntries {
  const { redis } = options;
  const wallNow = options.wallNow ?? Date.now;
  return {
    async get(key) {
      let stored: string | null;
      try {
        stored = await redis.run((client) => client.get(`${ENTRY_PREFIX}${key}`), 'read');
      } catch {
        return undefined;
      }
      if (stored === null) return undefined;
      try {
        const entry: unknown = JSON.parse(stored);
        return isSharedEntry(entry) ? entry : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, entry, ttlMillis, shares) {
      const text = JSON.stringify(entry);
      const bytes = text.length + ENTRY_PREFIX.length + key.length;
      const minute = Math.floor(wallNow() / MINUTE);
      const minutes = Array.from({ length: WINDOW_MINUTES }, (_, i) => minute - i);
      const counters = shares.flatMap((share) => minutes.map((m) => `${BYTES_PREFIX}${share.name}:${m}`));
      try {
        const counted = await redis.run((client) => client.mget(counters), 'read');
        const full = shares.some((share, s) => {
          let sum = 0;
          for (let i = 0; i < WINDOW_MINUTES; i++) sum += Number(counted[s * WINDOW_MINUTES + i] ?? 0);
          return sum + bytes > share.limit;
        });
        if (full) return false;
        const ttl = Math.max(1, Math.min(Math.floor(ttlMillis), MAX_SHARED_TTL_MINUTES * MINUTE));
        await redis.run((client) => {
          const batch = client.multi().set(`${ENTRY_PREFIX}${key}`, text, 'PX', ttl);
          for (const share of shares) {
            const counter = `${BYTES_PREFIX}${share.name}:${minute}`;
            batch.incrby(counter, bytes).expire(counter, (WINDOW_MINUTES + 1) * 60);
          }
          return batch.exec();
        }, 'write');
        return true;
      } catch {
        return false;
      }
    },
  };
}
