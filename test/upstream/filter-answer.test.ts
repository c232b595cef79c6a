/**
 * Every record a filtered read answers is held to the caller's own filter before anyone sees it: a record
 * that does not satisfy it is `UPSTREAM_DIALECT_MISMATCH` (`filter_answer`) naming the criterion and what
 * the upstream seems to do, never served, never counted as the upstream's ill health.
 */
import { describe, expect, it } from 'vitest';
import { compileCriteria, type FilterCondition } from '../../src/filters/compile-criteria.ts';
import { countsAgainstUpstream } from '../../src/errors/upstream-error.ts';
import { fromUpstreamError } from '../../src/errors/from-upstream-error.ts';
import { createLoaders } from '../../src/upstream/batching/loaders.ts';
import type { UpstreamRecord, UpstreamReads } from '../../src/upstream/client/types.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';

const credentials = { username: 'demo', apiToken: 't', applicationCode: 'demo', organizationCode: 'acme' };
const ORDER = 'com.acme.Order';

function loadersAnswering(records: UpstreamRecord[]) {
  const client: UpstreamReads = {
    getAll: () => Promise.resolve({ records, totalCount: records.length }),
    getObject: () => Promise.resolve(records[0] ?? null),
    getMetadata: () => Promise.resolve(null),
  };
  return createLoaders({
    client,
    credentials,
    matchesMode: 'regex',
    matchesCase: 'sensitive',
    maxIdLength: 100,
  });
}

function compile(conditions: Omit<FilterCondition, 'at'>[]) {
  const at = { value: 'v', values: 'vs', caseInsensitive: 'ci' };
  return compileCriteria(
    conditions.map((c) => ({ ...c, at })),
    { matchesMode: 'regex', guard: defaultPatternGuard(), argumentName: 'filter' },
  );
}

const order = (id: string, status?: string): UpstreamRecord => ({
  _id: id,
  ...(status === undefined ? {} : { status }),
});

async function failureOf(promise: Promise<unknown>) {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('the read did not fail');
  return error;
}

describe('a filtered read held to its filter', () => {
  it('should refuse an in answered with a value around one of its own (an unanchored alternation)', async () => {
    const criteria = await compile([{ fieldName: 'status', operator: 'in', values: ['open', 'delivered'] }]);
    const loaders = loadersAnswering([order('a', 'open'), order('b', 'undelivered')]);
    const error = await failureOf(loaders.page(ORDER, criteria, 10, 0));
    expect(error).toMatchObject({
      kind: 'dialect_mismatch',
      assumption: { name: 'filter_answer' },
      criterion: { fieldName: 'status', operator: 'in' },
    });
    expect(error.message).toContain('match part of the value');
    expect(countsAgainstUpstream(error)).toBe(false);
  });

  it('should name an upstream that keeps only the last criterion on a field', async () => {
    const criteria = await compile([
      { fieldName: 'status', operator: 'startsWith', value: 'un' },
      { fieldName: 'status', operator: 'endsWith', value: 'ed' },
    ]);
    const loaders = loadersAnswering([order('a', 'undelivered'), order('b', 'delivered')]);
    const error = await failureOf(loaders.page(ORDER, criteria, 10, 0));
    expect(error.message).toContain('only the last criterion on this field');
    expect(error).toMatchObject({ criterion: { fieldName: 'status', operator: 'startsWith' } });
  });

  it('should refuse a getObject answered with a record that lacks the field', async () => {
    const criteria = await compile([{ fieldName: 'status', operator: 'equals', value: 'open' }]);
    const error = await failureOf(loadersAnswering([order('a')]).find(ORDER, criteria));
    expect(error.message).toContain('does not hold this field');
  });

  it('should refuse a page that holds one record twice', async () => {
    const error = await failureOf(
      loadersAnswering([order('a', 'open'), order('a', 'open')]).page(ORDER, [], 10, 0),
    );
    expect(error).toMatchObject({ kind: 'dialect_mismatch', assumption: { name: 'filter_answer' } });
    expect(error.message).toContain('twice');
  });

  it('should serve a page every record of which satisfies the filter', async () => {
    const criteria = await compile([{ fieldName: 'status', operator: 'in', values: ['open', 'delivered'] }]);
    const page = await loadersAnswering([order('a', 'open'), order('b', 'delivered')]).page(
      ORDER,
      criteria,
      10,
      0,
    );
    expect(page.records.map((r) => r._id)).toEqual(['a', 'b']);
  });

  it('should answer the caller UPSTREAM_DIALECT_MISMATCH blamed on the gateway, naming the criterion', async () => {
    const criteria = await compile([
      { fieldName: 'status', operator: 'equals', value: 'open', caseInsensitive: true },
    ]);
    const error = await failureOf(loadersAnswering([order('a', 'opened')]).find(ORDER, criteria));
    if (!('kind' in error)) throw error;
    const graphql = fromUpstreamError(error as Parameters<typeof fromUpstreamError>[0]);
    expect(graphql.extensions).toMatchObject({
      code: 'UPSTREAM_DIALECT_MISMATCH',
      blame: 'gateway',
      assumption: 'filter_answer',
      criterion: { fieldName: 'status', operator: 'equals' },
    });
  });
});
