/**
 * The response cache: upstream reads (objects by id, finds, pages, metadata) of the types that declare a
 * policy (`cache-policy.ts`), kept as the JSON text the upstream's answer makes, in this replica's memory,
 * bounded in characters (`CACHE_MAX_BYTES`) with one account's entries held to a share of it and one
 * organization's to a larger one, as every shared resource is (`docs/shared-resources.md`), and, with
 * `CACHE_REDIS_MAX_BYTES`, shared with the other replicas through Redis (`shared-entries.ts`). Keys carry the
 * versions writes replace (`cache-versions.ts`), in Redis when the gateway has one, so a write through any
 * replica is seen by the next read on every replica.
 *
 * Only what a request's loaders verified is stored (the tenant check, the filter and page checks run on
 * every upstream answer before it gets here), and every read of a request goes through the loaders
 * (`request-cache.ts` is the request's view). Entries are text: each hit is a copy of its own, so no
 * request can change what another is served, and numbers the upstream wrote beyond a double's precision
 * come back digit for digit (`parseExactJson`).
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isUpstreamError } from '../errors/upstream-error.ts';
import type { CachePolicy } from '../config/cache-settings.ts';
import { tenantOf, type CacheCaller } from './cache-key.ts';
import type { CacheVersions } from './cache-versions.ts';
import type { SharedEntries, SharedShare } from './shared-entries.ts';

/** What the cache counts, per object type (`gateway_cache_events_total`). */
export type CacheEvent =
  /** Served from the cache, fresh. */
  | 'hit'
  /** Read upstream (and stored, unless refused). */
  | 'miss'
  /** Served past its `maxAge` while the upstream failed (`CACHE_STALE_IF_ERROR_SECONDS`). */
  | 'stale'
  /** Dropped to make room (the LRU bound). */
  | 'evicted'
  /** Not stored: the account's or the organization's share is full. */
  | 'refused'
  /** Stepped aside: the versions could not be read (Redis away); read upstream. */
  | 'bypassed';

/** Every {@link CacheEvent}, for counters present at 0. */
export const CACHE_EVENTS: readonly CacheEvent[] = ['hit', 'miss', 'stale', 'evicted', 'refused', 'bypassed'];

/** Options of {@link createResponseCache}. */
export interface ResponseCacheOptions {
  /** The cached types, by upstream object name. */
  policies: ReadonlyMap<string, CachePolicy>;
  versions: CacheVersions;
  /** Characters of entry text (and keys) held at once, all callers together (`CACHE_MAX_BYTES`). */
  maxBytes: number;
  /** Of those, what one account's `PRIVATE` entries may hold. */
  maxBytesPerUser: number;
  /** Of those, what one organization's entries (`PUBLIC` and its accounts' `PRIVATE`) may hold. */
  maxBytesPerTenant: number;
  /** How long past its `maxAge` an entry may still be served while the upstream fails (`CACHE_STALE_IF_ERROR_SECONDS`). */
  staleIfErrorSeconds: number;
  onEvent?: ((event: CacheEvent, objectName: string) => void) | undefined;
  /**
   * Entries shared through Redis (`shared-entries.ts`) and their bound in characters
   * (`CACHE_REDIS_MAX_BYTES`), the shares of it per account and organization in the same proportions as
   * in memory; `undefined`: each replica's entries are its own.
   */
  shared?: { entries: SharedEntries; maxBytes: number } | undefined;
  /** The clock, in milliseconds (tests). Default `performance.now`. */
  now?: () => number;
  /** The wall clock shared entries are aged by (tests). Default `Date.now`. */
  wallNow?: () => number;
}

/** One cached answer. */
interface Entry {
  text: string;
  objectName: string;
  storedAt: number;
  maxAgeMillis: number;
  /** The share keys it counts against: its tenant's, and its account's for a `PRIVATE` entry. */
  shares: readonly string[];
  bytes: number;
}

/** What a lookup found. */
export interface CachedAnswer {
  text: string;
  /** Whole seconds since it was read upstream. */
  ageSeconds: number;
  /** Milliseconds since it was read upstream. */
  ageMillis: number;
  /** Within its `maxAge`: servable as is. Otherwise servable only while the upstream fails. */
  fresh: boolean;
}

/** The response cache (see the module comment). */
export interface ResponseCache {
  /** The policy of `objectName`, `undefined` when it is not cached. */
  policyOf(objectName: string): CachePolicy | undefined;
  readonly versions: CacheVersions;
  /** The entry under `key`, fresh or within its stale age; `undefined` when none. */
  lookup(key: string): CachedAnswer | undefined;
  /**
   * The entry under `key` another replica shared through Redis, kept in this replica's memory too (with its
   * age); `undefined` when none, Redis is away, or entries are not shared.
   */
  lookupShared(key: string, caller: CacheCaller): Promise<CachedAnswer | undefined>;
  /** Stores `text` under `key` for `caller`, within the bounds and shares; `false` when refused. */
  store(key: string, text: string, objectName: string, caller: CacheCaller): boolean;
  /** Whether a failed read may be answered by a stale entry: the upstream is down, slow or its breaker open. */
  mayServeStale(error: unknown): boolean;
  count(event: CacheEvent, objectName: string): void;
  /** Empties this replica's entries (SIGHUP); the versions stay. */
  clear(): void;
  /** Characters held, per object type (`gateway_cache_bytes`). */
  bytesByType(): ReadonlyMap<string, number>;
  /** Characters held in all. */
  size(): number;
  /**
   * Whether the upstream has served `caller` records in its organization: a session's organization is what
   * its login asked for, and only the upstream's answer proves the account may read there. Until then the
   * caller is served no `PUBLIC` entry (its reads go upstream, and the first that brings a record proves it).
   */
  isProven(caller: CacheCaller): boolean;
  /** Records that the upstream served `caller` records in its organization. */
  prove(caller: CacheCaller): void;
}

/** A key's own characters, counted with its entry: the bound is on what the process holds. */
const KEY_CHARS = 43;

/** Accounts and organizations remembered as proven (`isProven`); one forgotten is proven again by its next read. */
const MAX_PROVEN = 100_000;

/** Failures of the upstream that a stale entry may answer: it is down, slow, or failing fast. */
const STALE_KINDS: ReadonlySet<string> = new Set(['unavailable', 'timeout', 'circuit_open', 'bad_response']);

/** Creates the cache (see the module comment). */
export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const { policies, versions, onEvent, shared } = options;
  const now = options.now ?? (() => performance.now());
  const wallNow = options.wallNow ?? Date.now;
  const staleMillis = options.staleIfErrorSeconds * 1_000;
  const shareBytes = new Map<string, number>();
  const typeBytes = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, delta: number) => {
    const next = (map.get(key) ?? 0) + delta;
    if (next <= 0) map.delete(key);
    else map.set(key, next);
  };
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry) => entry.bytes,
    // The shares and the gauge follow every way an entry leaves: evicted, replaced, expired, cleared.
    dispose: (entry, _key, reason) => {
      for (const share of entry.shares) add(shareBytes, share, -entry.bytes);
      add(typeBytes, entry.objectName, -entry.bytes);
      if (reason === 'evict') onEvent?.('evicted', entry.objectName);
    },
    perf: { now },
  });

  /** Stores `text` in this replica's memory, read upstream at `storedAt` (this replica's clock). */
  const put = (key: string, text: string, objectName: string, caller: CacheCaller, storedAt: number) => {
    const policy = policies.get(objectName);
    if (policy === undefined) return false;
    const bytes = text.length + KEY_CHARS;
    const tenant = `tenant:${tenantOf(caller)}`;
    const shares = policy.scope === 'PUBLIC' ? [tenant] : [tenant, `user:${caller.userKey}`];
    // The entry this one replaces leaves first, so it does not count twice against the shares.
    entries.delete(key);
    const limits = [options.maxBytesPerTenant, options.maxBytesPerUser];
    if (shares.some((share, i) => (shareBytes.get(share) ?? 0) + bytes > (limits[i] ?? 0))) {
      onEvent?.('refused', objectName);
      return false;
    }
    const maxAgeMillis = policy.maxAgeSeconds * 1_000;
    const ttl = Math.max(1, storedAt + maxAgeMillis + staleMillis - now());
    entries.set(key, { text, objectName, storedAt, maxAgeMillis, shares, bytes }, { ttl });
    // Too large for the whole cache: lru-cache declines it without a dispose.
    if (!entries.has(key)) return false;
    for (const share of shares) add(shareBytes, share, bytes);
    add(typeBytes, objectName, bytes);
    return true;
  };

  /** The Redis counters a shared entry counts against: all entries, its organization's, its account's. */
  const sharedShares = (scope: CachePolicy['scope'], caller: CacheCaller): SharedShare[] => {
    const total = shared?.maxBytes ?? 0;
    const part = (limit: number) => Math.floor((total * limit) / options.maxBytes);
    const shares = [
      { name: 'all', limit: total },
      { name: `tenant:${tenantOf(caller)}`, limit: part(options.maxBytesPerTenant) },
    ];
    if (scope === 'PRIVATE') {
      const account = createHash('sha256').update(caller.userKey).digest('base64url');
      shares.push({ name: `user:${account}`, limit: part(options.maxBytesPerUser) });
    }
    return shares;
  };

  const proven = new LRUCache<string, true>({ max: MAX_PROVEN });
  const provenKey = (caller: CacheCaller) => JSON.stringify([caller.userKey, caller.organizationCode]);

  return {
    versions,
    isProven: (caller) => proven.has(provenKey(caller)),
    prove: (caller) => {
      proven.set(provenKey(caller), true);
    },
    policyOf: (objectName) => policies.get(objectName),
    lookup(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      const age = now() - entry.storedAt;
      // lru-cache's own expiry reads a clock it refreshes lazily: the stale age is held here, exactly.
      if (age > entry.maxAgeMillis + staleMillis) {
        entries.delete(key);
        return undefined;
      }
      return {
        text: entry.text,
        ageSeconds: Math.floor(age / 1_000),
        ageMillis: age,
        fresh: age <= entry.maxAgeMillis,
      };
    },
    lookupShared: async (key, caller) => {
      if (shared === undefined) return undefined;
      const entry = await shared.entries.get(key);
      const policy = entry === undefined ? undefined : policies.get(entry.objectName);
      if (entry === undefined || policy === undefined) return undefined;
      const age = wallNow() - entry.storedAtWall;
      // A clock that went back, or an entry past what this replica would serve: none.
      if (age < 0 || age > entry.maxAgeMillis + staleMillis) return undefined;
      put(key, entry.text, entry.objectName, caller, now() - age);
      return {
        text: entry.text,
        ageSeconds: Math.floor(age / 1_000),
        ageMillis: age,
        fresh: age <= entry.maxAgeMillis,
      };
    },
    store(key, text, objectName, caller) {
      if (!put(key, text, objectName, caller, now())) return false;
      const policy = policies.get(objectName);
      if (shared !== undefined && policy !== undefined) {
        const maxAgeMillis = policy.maxAgeSeconds * 1_000;
        const entry = { text, objectName, storedAtWall: wallNow(), maxAgeMillis };
        // Not awaited: the answer does not wait for Redis, and a write Redis missed is only a later miss.
        void shared.entries.set(key, entry, maxAgeMillis + staleMillis, sharedShares(policy.scope, caller));
      }
      return true;
    },
    mayServeStale: (error) => staleMillis > 0 && isUpstreamError(error) && STALE_KINDS.has(error.kind),
    count: (event, objectName) => onEvent?.(event, objectName),
    clear: () => {
      entries.clear();
    },
    bytesByType: () => typeBytes,
    size: () => entries.calculatedSize,
  };
}
