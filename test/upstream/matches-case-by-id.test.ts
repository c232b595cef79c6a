/**
 * The run-time verification of `matches_case`: a read by id answered with an `_id` that differs from the one
 * asked only in case is `UPSTREAM_DIALECT_MISMATCH` naming `UPSTREAM_MATCHES_CASE` (the upstream ignores case,
 * and may have hidden the object asked for behind the other one), in every path a read by id takes: one id
 * alone, a batch, a single `getObject` (`exact`). Any other stray record is a record not asked for.
 */
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { createLoaders } from '../../src/upstream/batching/loaders.ts';
import type { MatchesMode, UpstreamRecord, UpstreamReads } from '../../src/upstream/client/types.ts';

const credentials = { username: 'demo', apiToken: 't', applicationCode: 'demo', organizationCode: 'acme' };
const ORDER = 'com.acme.Order';

/** An upstream that answers every read by id with `records`, whatever was asked. */
function answering(records: UpstreamRecord[]): UpstreamReads {
  return {
    getAll: () => Promise.resolve({ records, totalCount: records.length }),
    getObject: () => Promise.resolve(records[0] ?? null),
    getMetadata: () => Promise.resolve(null),
  };
}

function loaders(
  records: UpstreamRecord[],
  matchesMode: MatchesMode,
  matchesCase: 'sensitive' | 'insensitive',
) {
  return createLoaders({
    client: answering(records),
    credentials,
    matchesMode,
    matchesCase,
    maxIdLength: 100,
  });
}

async function failure(read: Promise<unknown>): Promise<UpstreamError> {
  const error = await read.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe('a read by id answered in another case', () => {
  it.each(['regex', 'find', 'exact'] as const)(
    'should be a matches_case mismatch for one id (%s)',
    async (mode) => {
      const error = await failure(loaders([{ _id: 'AB1' }], mode, 'sensitive').object(ORDER, 'ab1'));
      expect(error.kind).toBe('dialect_mismatch');
      expect(error.assumption).toEqual({ name: 'matches_case', setting: 'UPSTREAM_MATCHES_CASE' });
      expect(error.detail).toContain(
        mode === 'exact' ? 'no setting can turn off' : 'set UPSTREAM_MATCHES_CASE=insensitive',
      );
    },
  );

  it('should fail every id of a batch whose answer holds another case of one of them', async () => {
    const batch = loaders([{ _id: 'ab1' }, { _id: 'CD2' }], 'regex', 'sensitive');
    const settled = await Promise.allSettled([batch.object(ORDER, 'ab1'), batch.object(ORDER, 'cd2')]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    for (const result of settled) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ kind: 'dialect_mismatch' });
    }
  });

  it('should say the upstream ignores (?-i) when UPSTREAM_MATCHES_CASE=insensitive is already set', async () => {
    const error = await failure(loaders([{ _id: 'Ab1' }], 'regex', 'insensitive').object(ORDER, 'ab1'));
    expect(error.detail).toContain('the upstream ignores that flag');
  });

  it('should refuse a stray record that is not another case of the id as a record not asked for', async () => {
    for (const mode of ['regex', 'exact'] as const) {
      await expect(loaders([{ _id: 'ab12' }], mode, 'sensitive').object(ORDER, 'ab1')).rejects.toMatchObject({
        kind: 'dialect_mismatch',
        assumption: { name: 'filter_answer' },
      });
      expect(await loaders([{ _id: 'ab1' }], mode, 'sensitive').object(ORDER, 'ab1')).toEqual({ _id: 'ab1' });
    }
  });
});
