/**
 * One request's view of the response cache, held by its loaders (`upstream/batching/loaders.ts`): whose
 * reads these are (the session's account and organization, never a credential), the versions read once per
 * type for the whole request (one request sees one version), the types this request wrote (from then on read
 * upstream only: a write's read-back is never a cached answer, and is never cached), the oldest stale
 * answer served, which the response reports (`cache-report-plugin.ts`), and how long the answer stays fresh:
 * the least freshness left among its reads, none when one of them was made past every policy (what a
 * `GET` answer may tell the caller's own HTTP cache, `CACHE_HTTP=private`).
 */
import { parseExactJson } from '../upstream/dialect/exact-json.ts';
import { cacheKey, type CacheCaller, type CachedReadKind } from './cache-key.ts';
import type { ResponseCache } from './response-cache.ts';

/** What the response says of stale answers (`extensions.cache`). */
export interface StaleReport {
  stale: true;
  /** The oldest stale answer's age, in whole seconds. */
  ageSeconds: number;
}

/** See the module comment. */
export class RequestCache {
  readonly #cache: ResponseCache;
  readonly #caller: CacheCaller;
  #versions: Map<string, Promise<string | undefined>> | undefined;
  #written: Set<string> | undefined;
  #staleAge: number | undefined;
  /** The least freshness left among this request's answers read under a policy, in milliseconds. */
  #freshMillis: number | undefined;
  /** Whether a read of this request was made past every policy. */
  #readPast = false;

  constructor(cache: ResponseCache, caller: CacheCaller) {
    this.#cache = cache;
    this.#caller = caller;
  }

  /** Whether reads of `objectName` go through the cache in this request (cheap: the loaders' hot path asks). */
  covers(objectName: string): boolean {
    return this.#cache.policyOf(objectName) !== undefined && this.#written?.has(objectName) !== true;
  }

  /**
   * After a write of `objectName` (or before the read that verifies one): the rest of this request reads the
   * type upstream only, and stores nothing of it.
   */
  bypass(objectName: string): void {
    if (this.#cache.policyOf(objectName) !== undefined) (this.#written ??= new Set()).add(objectName);
  }

  /**
   * Once the request is done: replaces again the versions of the types it wrote. The write replaced them as
   * soon as the upstream answered (`invalidating-writes.ts`); a read another request made meanwhile may
   * have met an upstream replica that did not show the write yet and cached that, and this drops it.
   */
  async settle(): Promise<void> {
    if (this.#written === undefined) return;
    const { organizationCode } = this.#caller;
    await Promise.all(
      [...this.#written].map((objectName) => this.#cache.versions.replace(organizationCode, objectName)),
    );
  }

  /** The stale report of this request, `undefined` when every answer was fresh. */
  staleReport(): StaleReport | undefined {
    return this.#staleAge === undefined ? undefined : { stale: true, ageSeconds: this.#staleAge };
  }

  /**
   * A read made past the cache (a type without a policy, a type this request wrote, metadata by object id
   * alone): the answer holds something no policy covers, so it is fresh for no time.
   */
  readPast(): void {
    this.#readPast = true;
  }

  /**
   * How long the answer stays fresh, in whole seconds: the least freshness left among its reads, every one
   * of them answered under a policy (a fresh entry: its `maxAge` less its age; a read upstream: its
   * `maxAge`). `undefined` when nothing was read, a read was made past every policy (`readPast`, the
   * cache stepping aside) or an entry answered stale, or when less than a second is left.
   */
  freshSeconds(): number | undefined {
    if (this.#readPast || this.#staleAge !== undefined || this.#freshMillis === undefined) return undefined;
    const seconds = Math.floor(this.#freshMillis / 1_000);
    return seconds >= 1 ? seconds : undefined;
  }

  #freshFor(millis: number): void {
    this.#freshMillis = Math.min(this.#freshMillis ?? millis, millis);
  }

  #version(objectName: string): Promise<string | undefined> {
    this.#versions ??= new Map();
    let version = this.#versions.get(objectName);
    if (version === undefined) {
      version = this.#cache.versions.current(this.#caller.organizationCode, objectName);
      this.#versions.set(objectName, version);
    }
    return version;
  }

  /**
   * The answer of one read: a fresh entry, else `load()` (the loaders' verified read) stored for the next
   * reader, else, when `load()` fails because the upstream is down, an entry within its stale age.
   * `onHit` sees a value served from the cache (the loaders prime their per-request caches with it).
   */
  async read<T>(
    kind: CachedReadKind,
    objectName: string,
    args: unknown,
    load: () => Promise<T>,
    onHit?: (value: T) => void,
  ): Promise<T> {
    const cache = this.#cache;
    const policy = cache.policyOf(objectName);
    const version = await this.#version(objectName);
    if (policy === undefined || version === undefined) {
      if (policy !== undefined) cache.count('bypassed', objectName);
      this.#readPast = true;
      return load();
    }
    // Written while the version was read: the write's own reads must not see or fill the cache.
    if (!this.covers(objectName)) {
      this.#readPast = true;
      return load();
    }
    const key = cacheKey({ kind, objectName, scope: policy.scope, caller: this.#caller, version, args });
    // A PRIVATE entry was read by this very account in this organization; a PUBLIC one by any account of
    // it, so it is served only to an account the upstream already let read there.
    const mayServe = policy.scope === 'PRIVATE' || cache.isProven(this.#caller);
    const found = mayServe ? (cache.lookup(key) ?? (await cache.lookupShared(key, this.#caller))) : undefined;
    const maxAgeMillis = policy.maxAgeSeconds * 1_000;
    if (found?.fresh === true) {
      cache.count('hit', objectName);
      this.#freshFor(maxAgeMillis - found.ageMillis);
      return this.#served(found.text, onHit);
    }
    let value: T;
    try {
      value = await load();
    } catch (error) {
      if (found === undefined || !cache.mayServeStale(error)) throw error;
      cache.count('stale', objectName);
      this.#staleAge = Math.max(this.#staleAge ?? 0, found.ageSeconds);
      return this.#served(found.text, onHit);
    }
    cache.count('miss', objectName);
    this.#freshFor(maxAgeMillis);
    if (holdsRecords(value)) cache.prove(this.#caller);
    const text = JSON.stringify(value) as string | undefined;
    if (text !== undefined && this.covers(objectName)) cache.store(key, text, objectName, this.#caller);
    return value;
  }

  #served<T>(text: string, onHit: ((value: T) => void) | undefined): T {
    // The text is what JSON.stringify made of a verified answer of type T.
    const value = parseExactJson(text) as T;
    onHit?.(value);
    return value;
  }
}

/**
 * Whether an answer holds a record (an object, a page with records): the upstream served this account
 * records in the session's organization (the loaders' tenant check refused any carrying another), which
 * proves it may read there. An empty answer proves nothing: an upstream may answer a foreign organization
 * with nothing rather than a refusal.
 */
function holdsRecords(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (typeof (value as { _id?: unknown })._id === 'string') return true;
  const { records } = value as { records?: unknown };
  return Array.isArray(records) && records.length > 0;
}
