/**
 * The batch function behind `Loaders.object`: many ids of one object type, read in as few upstream calls
 * as the upstream's `matches` operator allows.
 */
import { idPattern, planIdBatches, readsInBatch } from './batch-plan.ts';
import { invalidInput } from '../../errors/upstream-error.ts';
import { verifyPageLength } from '../dialect/pages/page-length.ts';
import { caseIgnored, differsOnlyInCase } from '../dialect/matches-case.ts';
import { unaskedRecord } from '../dialect/answers/verify-filter-answer.ts';
import { verifyTenant, type TenantCheck } from '../dialect/answers/verify-tenant.ts';
import type { UpstreamCredentials, UpstreamReads } from '../client/types.ts';
import type { Criterion, MatchesMode, UpstreamRecord } from '../client/wire.ts';

/** What {@link createBatchById} needs. */
export interface BatchByIdOptions {
  client: UpstreamReads;
  credentials: UpstreamCredentials;
  matchesMode: MatchesMode;
  /** `UPSTREAM_MATCHES_CASE`: names the remedy when an answer shows the upstream ignoring case. */
  matchesCase: 'sensitive' | 'insensitive';
  objectName: string;
  maxBatchSize: number;
  maxCriterionLength: number;
  /** Longest id read; longer ones (and the empty id) fail their own key as the caller's mistake. */
  maxIdLength: number;
  /** Runs a single `getObject` read (all of `exact` mode, the odd id in `regex` mode) under the request's cap. */
  capped: <T>(read: () => Promise<T>) => Promise<T>;
  onBatch: ((operation: 'objectById', size: number) => void) | undefined;
  /** The session's organization and where records carry theirs: another's record is never served. */
  tenant?: TenantCheck | undefined;
}

/** A DataLoader batch function: one value (record, `null`, or that key's error) per key, in key order. */
export type BatchById = (ids: readonly string[]) => Promise<(UpstreamRecord | null | Error)[]>;

function idCriterion(pattern: string): Criterion[] {
  return [{ fieldName: '_id', operator: 'matches', value: pattern }];
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(`upstream read failed: ${String(reason)}`);
}

/**
 * Creates the batch function for one object type.
 *
 * `regex` mode: one `getAll` per planned alternation (`id1|id2|…`, split by count and length), answers
 * matched to ids by `_id`, never by position, so order and extra records do not matter.
 * `exact` mode: one `getObject` per id (`_id matches <id>` means equality there), under the request's cap.
 * Either way an id without a record gets `null`, and a failed call fails only the ids it carried.
 */
export function createBatchById(options: BatchByIdOptions): BatchById {
  const { client, credentials, objectName, capped, onBatch } = options;

  async function readOne(id: string, pattern: string): Promise<UpstreamRecord | null> {
    onBatch?.('objectById', 1);
    const record = await capped(() => client.getObject(credentials, objectName, idCriterion(pattern)));
    if (record !== null && options.tenant !== undefined)
      verifyTenant('getObject', objectName, [record], options.tenant);
    // A misconfigured mode or a loose upstream could answer another object: never hand it out as `id`.
    if (record === null || record._id === id) return record;
    // Another case of the id: the upstream ignores case, and may have hidden the object asked for behind it.
    if (differsOnlyInCase(id, record._id)) throw caseIgnored('getObject', options);
    // Any other object: the upstream did not read the id as asked, and may have hidden the one asked for.
    throw unaskedRecord('getObject');
  }

  async function readMany(ids: string[], pattern: string): Promise<Map<string, UpstreamRecord>> {
    onBatch?.('objectById', ids.length);
    const page = await client.getAll(credentials, objectName, idCriterion(pattern), ids.length, 0);
    // Fewer records than ids is normal (ids that do not exist), unless the answer counts more matches
    // than it holds: then the upstream cut the batch, and the missing ids would read as `null`.
    verifyPageLength('getAll', page, ids.length, 0, 'ids');
    if (options.tenant !== undefined) verifyTenant('getAll', objectName, page.records, options.tenant);
    const wanted = new Set(ids);
    const byId = new Map<string, UpstreamRecord>();
    let unasked: UpstreamRecord[] | undefined;
    for (const record of page.records) {
      if (!wanted.has(record._id)) (unasked ??= []).push(record);
      else if (!byId.has(record._id)) byId.set(record._id, record);
    }
    // Only records nobody asked for are compared: none at all from an upstream that speaks as assumed.
    if (unasked !== undefined) checkCase(ids, unasked);
    return byId;
  }

  /**
   * Throws for records nobody asked for: the `matches_case` mismatch when one is another case of an id asked
   * for, else the `filter_answer` one (the upstream answered a record not asked for).
   */
  function checkCase(ids: readonly string[], unasked: readonly UpstreamRecord[]): void {
    for (const { _id } of unasked) {
      if (ids.some((id) => differsOnlyInCase(id, _id))) throw caseIgnored('getAll', options);
    }
    if (unasked.length > 0) throw unaskedRecord('getAll');
  }

  /** The caller's mistake for an id no upstream object can have, or `undefined`. */
  function refusal(id: string): Error | undefined {
    if (id === '') return invalidInput('getAll', 'An object id must not be empty.', 'id');
    if (id.length > options.maxIdLength) {
      return invalidInput(
        'getAll',
        `An object id is ${id.length} characters long; ids have at most ${options.maxIdLength}.`,
        'id',
      );
    }
    return undefined;
  }

  /** The value of one id read alone: what the general path gives a one-id batch, without its maps and plan. */
  async function loadAlone(id: string): Promise<UpstreamRecord | null | Error> {
    const refused = refusal(id);
    if (refused !== undefined) return refused;
    try {
      if (options.matchesMode === 'exact') return await readOne(id, id);
      const pattern = idPattern(id);
      if (!readsInBatch(id, pattern, options)) return await readOne(id, pattern);
      onBatch?.('objectById', 1);
      const page = await client.getAll(credentials, objectName, idCriterion(pattern), 1, 0);
      // As in a batch: an empty answer that counts a match is a page the upstream did not serve (a
      // one-based upstream's page 0), never `null` for an object that exists.
      verifyPageLength('getAll', page, 1, 0, 'ids');
      if (options.tenant !== undefined) verifyTenant('getAll', objectName, page.records, options.tenant);
      for (const record of page.records) if (record._id === id) return record;
      const unasked = page.records;
      if (unasked.length > 0) checkCase([id], unasked);
      return null;
    } catch (error) {
      return asError(error);
    }
  }

  return async (requested) => {
    // A tick that asked for one id (a single `object` read): the common case, and the cheapest.
    const [only] = requested;
    if (requested.length === 1 && only !== undefined) return [await loadAlone(only)];
    const results = new Map<string, UpstreamRecord | null | Error>();
    const ids: string[] = [];
    for (const id of requested) {
      const refused = refusal(id);
      if (refused === undefined) ids.push(id);
      else results.set(id, refused);
    }
    const settle = async (
      keys: string[],
      read: () => Promise<Map<string, UpstreamRecord>>,
    ): Promise<void> => {
      try {
        const found = await read();
        for (const key of keys) results.set(key, found.get(key) ?? null);
      } catch (error) {
        const failure = asError(error);
        for (const key of keys) results.set(key, failure);
      }
    };
    const single = (id: string, pattern: string): Promise<void> =>
      settle([id], async () => {
        const record = await readOne(id, pattern);
        return new Map(record === null ? [] : [[id, record]]);
      });

    if (options.matchesMode === 'exact') {
      await Promise.all([...new Set(ids)].map((id) => single(id, id)));
    } else {
      const plan = planIdBatches(ids, options);
      await Promise.all([
        ...plan.batches.map((batch) => settle(batch.ids, () => readMany(batch.ids, batch.pattern))),
        ...plan.singles.map(({ id, pattern }) => single(id, pattern)),
      ]);
    }
    return requested.map((id) => results.get(id) ?? null);
  };
}
