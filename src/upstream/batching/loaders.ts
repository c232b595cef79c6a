/**
 * Per-request DataLoaders over the upstream's read handle: objects by id batched into one `getAll` per
 * type and tick, filtered reads, pages and metadata deduplicated, all cached for the life of one GraphQL
 * request only. Across requests, the response cache (`src/cache/`, when on) sits around them: it stores only
 * what these loaders verified (tenant, filter, page checks), and every read still goes through them.
 */
import { bulkhead, type BulkheadPolicy } from 'cockatiel';
import DataLoader from 'dataloader';
import { createBatchById } from './batch-by-id.ts';
import { criteriaKey } from './criteria-key.ts';
import { PrimedRecords } from './primed-records.ts';
import type { RequestCache } from '../../cache/request-cache.ts';
import type { CachedReadKind } from '../../cache/cache-key.ts';
import { verifyPageLength } from '../dialect/pages/page-length.ts';
import { verifyLiteralMatches } from '../dialect/matches-case.ts';
import { verifyDistinctIds, verifyFilterAnswer } from '../dialect/answers/verify-filter-answer.ts';
import { verifyTenant, type TenantCheck, type TenantMismatch } from '../dialect/answers/verify-tenant.ts';
import type { Criterion, ReadPage, UpstreamCredentials, UpstreamReads } from '../client/types.ts';
import type { MatchesMode, UpstreamRecord } from '../client/wire.ts';

/** Ids one `getAll` reads at most in `regex` mode (`LoaderOptions.maxBatchSize`). */
export const MAX_IDS_PER_BATCH = 100;

/**
 * Ids one `getAll` reads in `regex` mode when the upstream serves at most `upstreamMaxPageSize` records a
 * call (`UPSTREAM_MAX_PAGE_SIZE`): a batch is one page, so it is never larger than the upstream's pages.
 */
export function idsPerBatch(upstreamMaxPageSize: number): number {
  return Math.max(1, Math.min(MAX_IDS_PER_BATCH, upstreamMaxPageSize));
}

/**
 * Longest criterion the gateway sends in one upstream URL, in characters: a batched read's `_id`
 * alternation is split beyond it, and a compiled filter pattern longer than it is refused
 * (`filters/compile-criteria.ts`).
 */
export const MAX_CRITERION_LENGTH = 4_000;

/** Settings of {@link createLoaders}. */
export interface LoaderOptions {
  /** The upstream's read handle (usually wrapped by `withCoalescing`). */
  client: UpstreamReads;
  /** The caller's session, sent with every read. */
  credentials: UpstreamCredentials;
  /** How the upstream's `matches` compares (`UPSTREAM_MATCHES`): decides between batching and single reads. */
  matchesMode: MatchesMode;
  /** Whether the upstream's `matches` ignores case (`UPSTREAM_MATCHES_CASE`): names the remedy of a read by id answered in another case. */
  matchesCase: 'sensitive' | 'insensitive';
  /** Ids per `getAll` in `regex` mode (`idsPerBatch`). Default `100`. */
  maxBatchSize?: number;
  /** URL-encoded bytes of the `_id` alternation per `getAll` (it travels in the URL); split beyond. Default {@link MAX_CRITERION_LENGTH}. */
  maxCriterionLength?: number;
  /** Longest id read (`UPSTREAM_MAX_ID_LENGTH`); longer ones and the empty id fail their key as `invalid_input`. */
  maxIdLength: number;
  /** Single reads in flight at once: `getObject` (all of `exact` mode) and metadata. Default `8`. */
  exactConcurrency?: number;
  /**
   * The record field naming a record's organization (`UPSTREAM_TENANT_FIELD`, a dotted path): a record whose
   * organization is not the session's is never served. Default `organizationCode`.
   */
  tenantField?: string | undefined;
  /** Told of each record of another organization before its read fails (the security log and metric). */
  onTenantMismatch?: ((mismatch: TenantMismatch) => void) | undefined;
  /** Called once per upstream call the loaders make, with the number of keys it serves (metrics). */
  onBatch?: (operation: 'objectById' | 'page' | 'metadata', size: number) => void;
  /**
   * The response cache, as this request sees it (`src/cache/`): reads of the types it covers are answered
   * from it, and what this request's loads verified is stored in it. `undefined`: every read goes upstream.
   */
  cache?: RequestCache | undefined;
}

/** The loaders of one GraphQL request. */
export interface Loaders {
  /** One object by id; null when missing. */
  object(objectName: string, id: string): Promise<UpstreamRecord | null>;
  /** The first object matching `criteria` (one `getObject`), deduped and cached per request; null when none. */
  find(objectName: string, criteria: Criterion[]): Promise<UpstreamRecord | null>;
  /** One upstream page (zero-based pageIndex), deduped and cached per request; primes `object` with its records. */
  page(objectName: string, criteria: Criterion[], pageSize: number, pageIndex: number): Promise<ReadPage>;
  /**
   * Metadata of an object; `objectName`, when the caller knows the object's type, lets the type's cache
   * policy hold (metadata of an object of unknown type is never cached).
   */
  metadata(objectId: string, category: string, objectName?: string): Promise<unknown>;
  /**
   * After a write: forget what this request cached about the object (and cached pages and finds of that
   * type), and read the type upstream only for the rest of the request (the response cache neither answers
   * nor stores a write's read-back).
   */
  clearObject(objectName: string, id: string): void;
  /** Put a record known to be current into the cache. */
  primeObject(objectName: string, record: UpstreamRecord): void;
}

interface PageKey {
  criteria: Criterion[];
  pageSize: number;
  pageIndex: number;
}

interface MetadataKey {
  objectId: string;
  category: string;
}

/** Stable cache key of a page, whatever order its criterion objects were built in. */
function pageCacheKey(key: PageKey): string {
  return JSON.stringify([criteriaKey(key.criteria), key.pageSize, key.pageIndex]);
}

function findCacheKey(criteria: readonly Criterion[]): string {
  return JSON.stringify(criteriaKey(criteria));
}

function metadataCacheKey(key: MetadataKey): string {
  return JSON.stringify([key.objectId, key.category]);
}

/**
 * Creates the loaders of one request. Cheap: each DataLoader is made on first use, one per object type
 * (so the same id in two types are two keys, and a write clears only its own type's pages).
 */
export function createLoaders(options: LoaderOptions): Loaders {
  return new RequestLoaders(options);
}

/**
 * The loaders of one request, as one object with its methods on the prototype: a request pays for one
 * object, not a dozen closures, and for the maps and loaders it uses only (most read one object type by id).
 */
class RequestLoaders implements Loaders {
  readonly #options: LoaderOptions;
  readonly #maxBatchSize: number;
  readonly #maxCriterionLength: number;
  readonly #tenant: TenantCheck;
  /**
   * One cap for the whole request, whatever the number of object types it reads: the same bulkhead as the
   * resilience layer's, with a queue as long as the request's own reads (they wait, they are never
   * refused here). Made on first use: a request that reads by batch never needs it.
   */
  #cap: BulkheadPolicy | undefined;
  #objectLoaders: Map<string, DataLoader<string, UpstreamRecord | null>> | undefined;
  #pageLoaders: Map<string, DataLoader<PageKey, ReadPage, string>> | undefined;
  #findLoaders: Map<string, DataLoader<Criterion[], UpstreamRecord | null, string>> | undefined;
  #metadataLoader: DataLoader<MetadataKey, unknown, string> | undefined;
  /** Records pages brought, not yet handed to their type's object loader (`primed-records.ts`). */
  #primed: PrimedRecords | undefined;
  readonly #capped = <T>(read: () => Promise<T>): Promise<T> =>
    (this.#cap ??= bulkhead(this.#exactConcurrency(), Number.POSITIVE_INFINITY)).execute(read);

  constructor(options: LoaderOptions) {
    this.#options = options;
    this.#maxBatchSize = options.maxBatchSize ?? MAX_IDS_PER_BATCH;
    this.#maxCriterionLength = options.maxCriterionLength ?? MAX_CRITERION_LENGTH;
    this.#tenant = {
      organizationCode: options.credentials.organizationCode,
      path: (options.tenantField ?? 'organizationCode').split('.'),
      onMismatch: options.onTenantMismatch,
    };
  }

  #exactConcurrency(): number {
    return Math.max(1, Math.floor(this.#options.exactConcurrency ?? 8));
  }

  #knownObjectLoader(objectName: string): DataLoader<string, UpstreamRecord | null> | undefined {
    return this.#objectLoaders?.get(objectName);
  }

  #objectLoader(objectName: string): DataLoader<string, UpstreamRecord | null> {
    const known = this.#knownObjectLoader(objectName);
    if (known !== undefined) return known;
    const { client, credentials, onBatch, matchesMode, matchesCase, maxIdLength } = this.#options;
    const batchById = createBatchById({
      client,
      credentials,
      objectName,
      matchesMode,
      matchesCase,
      maxBatchSize: this.#maxBatchSize,
      maxCriterionLength: this.#maxCriterionLength,
      maxIdLength,
      capped: this.#capped,
      onBatch,
      tenant: this.#tenant,
    });
    // The batch function splits by count and length itself, so DataLoader hands it the whole tick.
    const loader = new DataLoader(batchById, { name: `object:${objectName}` });
    (this.#objectLoaders ??= new Map()).set(objectName, loader);
    return loader;
  }

  #pageLoader(objectName: string): DataLoader<PageKey, ReadPage, string> {
    this.#pageLoaders ??= new Map();
    let loader = this.#pageLoaders.get(objectName);
    if (loader === undefined) {
      const { client, credentials, onBatch, matchesMode, matchesCase } = this.#options;
      loader = new DataLoader<PageKey, ReadPage, string>(
        async ([key]) => {
          // `batch: false` hands over one key at a time: the upstream has no multi-page call.
          if (key === undefined) return [];
          onBatch?.('page', 1);
          const page = await client.getAll(
            credentials,
            objectName,
            key.criteria,
            key.pageSize,
            key.pageIndex,
          );
          // A page cut short by the upstream (or served at another offset) is a named error, never a page
          // with records missing or repeated (`page_size`, `UPSTREAM_MAX_PAGE_SIZE`).
          verifyPageLength('getAll', page, key.pageSize, key.pageIndex, 'page');
          // An `equals` answered with another text: the upstream ignores case or matches part of the value.
          verifyLiteralMatches('getAll', key.criteria, page.records, { matchesMode, matchesCase });
          // Any other record that does not satisfy the caller's filter, whatever the upstream did with it.
          verifyFilterAnswer('getAll', key.criteria, page.records);
          verifyDistinctIds('getAll', page.records);
          verifyTenant('getAll', objectName, page.records, this.#tenant);
          // Kept until `object()` asks; then DataLoader's `prime` keeps an entry already loaded in this
          // request, so one request sees one version.
          (this.#primed ??= new PrimedRecords()).add(objectName, page.records);
          return [page];
        },
        { batch: false, cacheKeyFn: pageCacheKey, name: `page:${objectName}` },
      );
      this.#pageLoaders.set(objectName, loader);
    }
    return loader;
  }

  #findLoader(objectName: string): DataLoader<Criterion[], UpstreamRecord | null, string> {
    this.#findLoaders ??= new Map();
    let loader = this.#findLoaders.get(objectName);
    if (loader === undefined) {
      const { client, credentials, matchesMode, matchesCase } = this.#options;
      loader = new DataLoader<Criterion[], UpstreamRecord | null, string>(
        // Not reported to `onBatch`: the batch metric counts the id, page and metadata loads only.
        async ([criteria]) => {
          if (criteria === undefined) return [];
          const record = await client.getObject(credentials, objectName, criteria);
          if (record !== null) {
            verifyLiteralMatches('getObject', criteria, [record], { matchesMode, matchesCase });
            verifyFilterAnswer('getObject', criteria, [record]);
            verifyTenant('getObject', objectName, [record], this.#tenant);
          }
          return [record];
        },
        { batch: false, cacheKeyFn: findCacheKey, name: `find:${objectName}` },
      );
      this.#findLoaders.set(objectName, loader);
    }
    return loader;
  }

  #getMetadataLoader(): DataLoader<MetadataKey, unknown, string> {
    const { client, credentials, onBatch } = this.#options;
    this.#metadataLoader ??= new DataLoader<MetadataKey, unknown, string>(
      async ([key]) => {
        if (key === undefined) return [];
        onBatch?.('metadata', 1);
        // The upstream has no batch metadata call: a page's metadata is one call per object, so they
        // queue on the request's cap instead of all reaching the upstream at once.
        return [await this.#capped(() => client.getMetadata(credentials, key.objectId, key.category))];
      },
      { batch: false, cacheKeyFn: metadataCacheKey, name: 'metadata' },
    );
    return this.#metadataLoader;
  }

  object(objectName: string, id: string): Promise<UpstreamRecord | null> {
    const loader = this.#objectLoader(objectName);
    const record = this.#primed?.take(objectName, id);
    if (record !== undefined) loader.prime(id, record);
    // A record a page of this request brought is served as it came: one request, one version (that page
    // told the cache how fresh it is).
    if (record !== undefined) return loader.load(id);
    return this.#throughCache(
      'object',
      objectName,
      () => id,
      () => loader.load(id),
      (cached) => {
        if (cached !== null) loader.prime(id, cached);
      },
    );
  }

  find(objectName: string, criteria: Criterion[]): Promise<UpstreamRecord | null> {
    const loader = this.#findLoader(objectName);
    return this.#throughCache(
      'find',
      objectName,
      () => criteriaKey(criteria),
      () => loader.load(criteria),
    );
  }

  page(objectName: string, criteria: Criterion[], pageSize: number, pageIndex: number): Promise<ReadPage> {
    const loader = this.#pageLoader(objectName);
    const key = { criteria, pageSize, pageIndex };
    return this.#throughCache(
      'page',
      objectName,
      () => [criteriaKey(criteria), pageSize, pageIndex],
      () => loader.load(key),
      // As a page read upstream does: its records answer this request's reads by id.
      (cached) => {
        (this.#primed ??= new PrimedRecords()).add(objectName, cached.records);
      },
    );
  }

  metadata(objectId: string, category: string, objectName?: string): Promise<unknown> {
    const loader = this.#getMetadataLoader();
    const key = { objectId, category };
    return this.#throughCache(
      'metadata',
      objectName,
      () => [objectId, category],
      () => loader.load(key),
    );
  }

  /**
   * `load` through the response cache when it covers `objectName` in this request (`args` names the read
   * in its key, built only then: the hot path skips it); otherwise upstream, and the answer then promises
   * no freshness (`readPast`).
   */
  #throughCache<T>(
    kind: CachedReadKind,
    objectName: string | undefined,
    args: () => unknown,
    load: () => Promise<T>,
    onHit?: (value: T) => void,
  ): Promise<T> {
    const cache = this.#options.cache;
    if (objectName === undefined || cache?.covers(objectName) !== true) {
      cache?.readPast();
      return load();
    }
    return cache.read(kind, objectName, args(), load, onHit);
  }

  clearObject(objectName: string, id: string): void {
    this.#options.cache?.bypass(objectName);
    this.#knownObjectLoader(objectName)?.clear(id);
    this.#primed?.forget(objectName, id);
    // Any cached page or find of this type may hold the object with its old fields, or miss it from a
    // filter it now matches.
    this.#pageLoaders?.get(objectName)?.clearAll();
    this.#findLoaders?.get(objectName)?.clearAll();
  }

  primeObject(objectName: string, record: UpstreamRecord): void {
    this.#primed?.forget(objectName, record._id);
    this.#objectLoader(objectName).clear(record._id).prime(record._id, record);
  }
}
