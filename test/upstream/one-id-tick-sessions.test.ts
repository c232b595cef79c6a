/**
 * The one-id tick (a single `object` read, read without a plan) behind the cross-request coalescing: two
 * sessions asking the same id at the same moment each get their own session's record (never the other's),
 * one session asking twice at once makes one upstream call, and a bad id is refused before any call, as in a
 * tick of many ids.
 */
import { describe, expect, it } from 'vitest';
import { createLoaders } from '../../src/upstream/batching/loaders.ts';
import { withCoalescing } from '../../src/upstream/batching/coalesce.ts';
import type { UpstreamCredentials, UpstreamReads, UpstreamRecord } from '../../src/upstream/client/types.ts';

const ALICE: UpstreamCredentials = Object.freeze({ username: 'alice', apiToken: 'ta', applicationCode: 'a' });
const BOB: UpstreamCredentials = Object.freeze({ username: 'bob', apiToken: 'tb', applicationCode: 'a' });

/** An upstream whose record `o1` says who asked for it; answers after a turn, so that calls overlap. */
function upstream() {
  const calls: string[] = [];
  const answer = (credentials: UpstreamCredentials): Promise<UpstreamRecord> => {
    calls.push(credentials.username);
    return new Promise((resolve) =>
      setTimeout(() => {
        resolve({ _id: 'o1', owner: credentials.username });
      }, 10),
    );
  };
  const reads: UpstreamReads = {
    getAll: async (credentials) => ({ records: [await answer(credentials)], totalCount: 1 }),
    getObject: (credentials) => answer(credentials),
    getMetadata: () => Promise.resolve(null),
  };
  return { reads: withCoalescing(reads), calls };
}

describe.each(['regex', 'exact'] as const)('a one-id tick in %s mode', (matchesMode) => {
  const loadersOf = (reads: UpstreamReads, credentials: UpstreamCredentials) =>
    createLoaders({ client: reads, credentials, matchesMode, matchesCase: 'sensitive', maxIdLength: 10 });

  it('should give each session its own record, and coalesce only within a session', async () => {
    const { reads, calls } = upstream();
    const [a1, b, a2] = await Promise.all([
      loadersOf(reads, ALICE).object('X', 'o1'),
      loadersOf(reads, BOB).object('X', 'o1'),
      loadersOf(reads, ALICE).object('X', 'o1'),
    ]);
    expect(a1).toEqual({ _id: 'o1', owner: 'alice' });
    expect(a2).toEqual({ _id: 'o1', owner: 'alice' });
    expect(b).toEqual({ _id: 'o1', owner: 'bob' });
    expect(calls.sort()).toEqual(['alice', 'bob']);
  });

  it.each(['', 'x'.repeat(11)])('should refuse the id %j before any call', async (id) => {
    const { reads, calls } = upstream();
    await expect(loadersOf(reads, ALICE).object('X', id)).rejects.toMatchObject({ kind: 'invalid_input' });
    expect(calls).toEqual([]);
  });
});
