/**
 * How long a read of one upstream object type may be served from the response cache, and to whom: the
 * policy belongs to the upstream's object name, so it holds whichever API reads the type (the generic
 * `object`/`objects`, a typed field, a reference, metadata). Declared in the type's SDL with Apollo's
 * `@cacheControl(maxAge:, scope:)`, overridden per object name by `CACHE_POLICIES`; a type nobody declared is
 * never cached.
 */

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
