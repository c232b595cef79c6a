/**
 * The settings of the response cache (`src/cache/`, `docs/design.md`, "The response cache"). Each field is
 * one setting (`setting.ts`), written here only.
 */
import { z } from 'zod';
import { int, list } from './parsers.ts';
import { setting } from './setting.ts';

/**
 * `PRIVATE`: an entry belongs to the account that read it. `PUBLIC`: shared by every account of the same
 * organization and application, never beyond.
 */
export type CacheScope = 'PUBLIC' | 'PRIVATE';

/** The cache policy of one object type. */
export interface CachePolicy {
  /** How long an entry is fresh, in seconds (at least 1). */
  maxAgeSeconds: number;
  scope: CacheScope;
}

/** The longest `maxAge` taken: entries must die well before the versions that guard them (`cache-versions.ts`). */
export const MAX_CACHE_AGE_SECONDS = 86_400;

/** The scopes, in the words of Apollo's `CacheControlScope`. */
export const CACHE_SCOPES: readonly CacheScope[] = ['PUBLIC', 'PRIVATE'];

/** A `maxAge` the cache can hold: a whole number of seconds in `[1, MAX_CACHE_AGE_SECONDS]`. */
export function isCacheAge(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= MAX_CACHE_AGE_SECONDS;
}

/**
 * The policy of every cached type: the SDL's declarations (`@cacheControl` on a `@dataObject` type), then the
 * `CACHE_POLICIES` overrides over them. A `maxAge` of 0 in either removes the type: never cached.
 */
export function cachePoliciesOf(
  declared: Iterable<readonly [objectName: string, policy: CachePolicy | undefined]>,
  overrides: ReadonlyMap<string, CachePolicy | null>,
): Map<string, CachePolicy> {
  const policies = new Map<string, CachePolicy>();
  for (const [objectName, policy] of declared) if (policy !== undefined) policies.set(objectName, policy);
  for (const [objectName, policy] of overrides) {
    if (policy === null) policies.delete(objectName);
    else policies.set(objectName, policy);
  }
  return policies;
}

/** One `CACHE_POLICIES` entry read: the type and its policy (`null`: never cached), or what is wrong. */
export type CachePolicyEntry = { objectName: string; policy: CachePolicy | null } | { problem: string };

/**
 * Reads one `CACHE_POLICIES` entry: `objectName=maxAge[:SCOPE]` (`com.example.LoanType=60:PUBLIC`), the
 * scope `PRIVATE` when left out (never guessed wider), `maxAge` `0` to leave the type uncached whatever its
 * SDL says.
 */
export function readCachePolicyEntry(entry: string): CachePolicyEntry {
  const match = /^([A-Za-z0-9_$.-]+)=(\d{1,6})(?::([A-Z]+))?$/.exec(entry);
  const [, objectName, age, scope = 'PRIVATE'] = match ?? [];
  if (objectName === undefined || age === undefined) {
    return {
      problem: `"${entry}" is not objectName=maxAge[:PUBLIC|PRIVATE] (e.g. com.example.LoanType=60:PUBLIC)`,
    };
  }
  if (!(CACHE_SCOPES as readonly string[]).includes(scope)) {
    return { problem: `"${entry}": the scope is PUBLIC or PRIVATE` };
  }
  const maxAgeSeconds = Number(age);
  if (maxAgeSeconds === 0) return { objectName, policy: null };
  if (!isCacheAge(maxAgeSeconds)) {
    return { problem: `"${entry}": maxAge is 0 (not cached) to ${MAX_CACHE_AGE_SECONDS} seconds` };
  }
  return { objectName, policy: { maxAgeSeconds, scope: scope as CacheScope } };
}

/** The overrides of `CACHE_POLICIES` (entries already checked by the setting), by object name. */
export function cachePolicyOverrides(entries: readonly string[]): Map<string, CachePolicy | null> {
  const overrides = new Map<string, CachePolicy | null>();
  for (const entry of entries) {
    const read = readCachePolicyEntry(entry);
    if ('objectName' in read) overrides.set(read.objectName, read.policy);
  }
  return overrides;
}

/** `CACHE_POLICIES`: entries checked one by one, kept as written (the cache reads them, `cachePolicyOverrides`). */
const cachePolicies = list.transform((entries, ctx) => {
  for (const entry of entries) {
    const read = readCachePolicyEntry(entry);
    if ('problem' in read) {
      ctx.addIssue({ code: 'custom', message: read.problem });
      return z.NEVER;
    }
  }
  return entries;
});

/** The response cache's settings, shaped as `GatewayConfig` reads them. */
export const CACHE_SETTINGS = {
  cache: {
    mode: setting(
      'CACHE',
      z.enum(['on', 'off']).default('on'),
      '`on`: cache upstream reads of the types that declare `@cacheControl` (or `CACHE_POLICIES`); `off`: every read goes upstream.',
    ),
    policies: setting(
      'CACHE_POLICIES',
      cachePolicies.default([]),
      'Per object name, over the SDL: `com.example.LoanType=60:PUBLIC,com.example.Order=0` (maxAge seconds, scope PRIVATE unless PUBLIC; 0 = not cached).',
    ),
    // 16 MiB of the 256 MiB heap, counted in characters of JSON as the answer limits are.
    maxBytes: setting(
      'CACHE_MAX_BYTES',
      int(65_536, 16 * 1024 * 1024 * 1024).default(16_777_216),
      "Characters of JSON the cache holds in this replica's memory, all callers together.",
    ),
    maxBytesPerUser: setting(
      'CACHE_MAX_BYTES_PER_USER',
      int(1_024, 16 * 1024 * 1024 * 1024).default(1_048_576),
      "Of those, what one account's PRIVATE entries may hold; past it a read is answered, not stored.",
    ),
    maxBytesPerTenant: setting(
      'CACHE_MAX_BYTES_PER_TENANT',
      int(1_024, 16 * 1024 * 1024 * 1024).default(4_194_304),
      "Of those, what one organization's entries (PUBLIC and its accounts' PRIVATE) may hold.",
    ),
    redisMaxBytes: setting(
      'CACHE_REDIS_MAX_BYTES',
      int(0, 16 * 1024 * 1024 * 1024).default(0),
      "Characters of entries shared by the replicas through Redis (with REDIS_URL), the same shares per account and organization; 0 = each replica's entries stay its own.",
    ),
    http: setting(
      'CACHE_HTTP',
      z.enum(['no-store', 'private']).default('no-store'),
      "`private`: a GET answer made only of reads of cached types says `Cache-Control: private, max-age=<the least freshness left among them>` and `Vary: Authorization` (the browser's own cache may keep it, no shared cache may); `no-store`: every answer says `no-store`.",
    ),
    staleIfErrorSeconds: setting(
      'CACHE_STALE_IF_ERROR_SECONDS',
      int(0, 86_400).default(300),
      'How long past its maxAge an entry is still served (marked stale) while the upstream is down or its breaker open; 0 = never.',
    ),
  },
} as const;
