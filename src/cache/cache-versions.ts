/**
 * The versions of the response cache: a value per (organization, object type) that every write of that type
 * through the gateway replaces, and that is part of every key of that type's entries (`cache-key.ts`). A
 * write so makes every entry of its type in its organization unreachable at once: objects, pages, finds
 * and metadata, whichever held the object. A write by a session without an organization replaces the
 * type's version in every organization (the `*` version, part of every key too), since its tenant is not
 * known.
 *
 * In memory (`createMemoryVersions`) the versions are this replica's. With Redis (`createRedisVersions`) they
 * are shared: a write on any replica replaces the version there, and every replica reads the version with
 * each lookup, so the writer reading through another replica a moment later misses and reads upstream. A new
 * version is random (never a counter that could start again at a number an old entry was stored under), and
 * a version Redis no longer has is made anew (random again) before anything is cached under it.
 */
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { RedisGuard } from '../auth/redis/redis-guard.ts';

/** The versions the cache keys by. */
export interface CacheVersions {
  /**
   * The current version of `objectName` in `organizationCode`, or `undefined` when it cannot be known now
   * (Redis away or a version just made): then the read neither uses nor fills the cache.
   */
  current(organizationCode: string, objectName: string): Promise<string | undefined>;
  /** Replaces the version after a write (`organizationCode` `undefined`: the write's tenant is unknown). */
  replace(organizationCode: string | undefined, objectName: string): Promise<void>;
}

/** Versions kept in this replica (one entry per organization and type read or written). */
const MAX_LOCAL_VERSIONS = 100_000;

/** The `organizationCode` of the version every organization's keys carry too. */
const EVERY_ORGANIZATION = '*';

function freshVersion(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * This replica's versions. One that is forgotten (the bound) reads as a new one, which only makes the
 * entries under the old one unreachable.
 */
export function createMemoryVersions(): CacheVersions & {
  currentNow(organizationCode: string, objectName: string): string;
} {
  const versions = new LRUCache<string, string>({ max: MAX_LOCAL_VERSIONS });
  const versionOf = (key: string): string => {
    let version = versions.get(key);
    if (version === undefined) versions.set(key, (version = freshVersion()));
    return version;
  };
  const currentNow = (organizationCode: string, objectName: string): string =>
    `${versionOf(JSON.stringify([organizationCode, objectName]))}.${versionOf(JSON.stringify([EVERY_ORGANIZATION, objectName]))}`;
  return {
    currentNow,
    current: (organizationCode, objectName) => Promise.resolve(currentNow(organizationCode, objectName)),
    replace(organizationCode, objectName) {
      versions.set(JSON.stringify([organizationCode ?? EVERY_ORGANIZATION, objectName]), freshVersion());
      return Promise.resolve();
    },
  };
}

/** Options of {@link createRedisVersions}. */
export interface RedisVersionsOptions {
  /** The gateway's Redis behind its guard (deadline, breaker): the sessions' connection. */
  redis: RedisGuard;
  /** Told of each replacement Redis did not take (it is sent again when Redis is back): drop what it guarded. */
  onUnshared?: () => void;
}

/** The cache's own keys in the shared Redis. */
export const CACHE_KEY_PREFIX = 'gateway:cache:version:';

/**
 * How long a version outlives its last replacement in Redis: far longer than any entry lives
 * (`MAX_CACHE_AGE_SECONDS` plus the stale age), so the bound on Redis's memory is the types written or read
 * in two days, and a version that expired is made anew (random) before anything is cached under it.
 */
const VERSION_TTL_SECONDS = 3 * 86_400;

/**
 * Versions shared through Redis: the same on every replica, so entries shared through Redis
 * (`shared-entries.ts`) are found by every replica. A replacement Redis missed is reported (`onUnshared`: the
 * cache then drops this replica's entries, which Redis's old version would still reach) and sent again as
 * soon as Redis is back.
 */
export function createRedisVersions(options: RedisVersionsOptions): CacheVersions {
  const { redis } = options;
  const keyOf = (organizationCode: string, objectName: string) =>
    `${CACHE_KEY_PREFIX}${encodeURIComponent(organizationCode)}:${encodeURIComponent(objectName)}`;
  const unsent = new Map<string, [string | undefined, string]>();

  const send = (organizationCode: string | undefined, objectName: string): Promise<unknown> =>
    redis.run(
      (client) =>
        client.set(
          keyOf(organizationCode ?? EVERY_ORGANIZATION, objectName),
          freshVersion(),
          'EX',
          VERSION_TTL_SECONDS,
        ),
      'write',
    );

  redis.onReturn(() => {
    const pending = [...unsent.values()];
    unsent.clear();
    for (const [organizationCode, objectName] of pending) {
      send(organizationCode, objectName).catch(() => {
        unsent.set(JSON.stringify([organizationCode, objectName]), [organizationCode, objectName]);
      });
    }
  });

  return {
    async current(organizationCode, objectName) {
      const keys = [keyOf(organizationCode, objectName), keyOf(EVERY_ORGANIZATION, objectName)];
      const read = () => redis.run((client) => client.mget(keys), 'read');
      try {
        let shared = await read();
        if (shared.some((version) => version === null)) {
          // Made here, then read again: two replicas making one at once agree on the one Redis kept (NX).
          await Promise.all(
            keys
              .filter((_, i) => shared[i] === null)
              .map((key) =>
                redis.run(
                  (client) => client.set(key, freshVersion(), 'EX', VERSION_TTL_SECONDS, 'NX'),
                  'write',
                ),
              ),
          );
          shared = await read();
          if (shared.some((version) => version === null)) return undefined;
        }
        return shared.join('.');
      } catch {
        return undefined;
      }
    },
    async replace(organizationCode, objectName) {
      try {
        await send(organizationCode, objectName);
      } catch {
        // Bounded as the local versions are: past it the other replicas see the write after maxAge only.
        if (unsent.size < MAX_LOCAL_VERSIONS) {
          unsent.set(JSON.stringify([organizationCode, objectName]), [organizationCode, objectName]);
        }
        options.onUnshared?.();
      }
    },
  };
}
