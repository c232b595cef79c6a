/**
 * The generic API's filter operators end to end: a real Apollo Client against the gateway and the
 * emulator, which evaluates the compiled `matches` patterns the way the upstream does (full string).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { listObjects } from '../support/list-objects.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { errorCodes, expectBadUserInput, firstError } from '../support/graphql-errors.ts';
import { ObjectDocument, ObjectsDocument, SaveDocument, type Criterion } from '../support/operations.ts';
import { withRiskyPatterns } from '../support/risky-patterns.ts';
import { DEMO_USER_KEY } from '../support/demo-account.ts';

const LOAN = 'com.example.LoanType';

let token: string;
/** Every loan type of the demo tenant, as stored. */
let loans: { id: string; loanType: string; description: string }[];

const h = useHarness({ resetStatsEachTest: true });
beforeAll(async () => {
  token = await h.login();
  loans = (await listObjects(h, token, LOAN)).map((n) => ({
    id: n.id,
    loanType: String(n.data.loanType),
    description: String(n.data.description),
  }));
});

/** The ids of the loan types matching `criteria`, with the query's errors. */
async function loanIdsWhere(...criteria: Criterion[]) {
  const result = await h.client(token).query({
    query: ObjectsDocument,
    variables: { objectName: LOAN, first: 100, filter: { criteria } },
  });
  return { ids: result.data?.objects.nodes.map((n) => n.id), error: result.error };
}

const idsOf = (keep: (loan: (typeof loans)[number]) => boolean) => loans.filter(keep).map((l) => l.id);

describe('filter operators of the generic API', () => {
  it('should find the values containing a text in any case with contains and caseInsensitive', async () => {
    const { ids, error } = await loanIdsWhere({
      fieldName: 'description',
      operator: 'contains',
      value: 'FIXED RATE',
      caseInsensitive: true,
    });
    expect(error).toBeUndefined();
    const expected = idsOf((l) => l.description.toLowerCase().includes('fixed rate'));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids).toEqual(expected);
  });

  it('should compare case-sensitively unless told otherwise', async () => {
    const { ids } = await loanIdsWhere({ fieldName: 'description', operator: 'contains', value: 'FIXED' });
    expect(ids).toEqual([]);
  });

  it('should find exactly the listed ids with in, in one upstream call', async () => {
    const wanted = [loans[2]!.id, loans[7]!.id, 'not-an-id'];
    const { ids } = await loanIdsWhere({ fieldName: '_id', operator: 'in', values: wanted });
    expect(ids).toEqual([loans[2]!.id, loans[7]!.id]);
    expect(h.totalUpstreamCalls()).toBe(1);
  });

  it('should match whole values with equals, startsWith and endsWith', async () => {
    const sample = loans[4]!.loanType;
    const [kind = ''] = sample.split(' ');
    const equals = await loanIdsWhere({ fieldName: 'loanType', operator: 'equals', value: sample });
    expect(equals.ids).toEqual(idsOf((l) => l.loanType === sample));
    const starts = await loanIdsWhere({ fieldName: 'loanType', operator: 'startsWith', value: kind });
    expect(starts.ids).toEqual(idsOf((l) => l.loanType.startsWith(kind)));
    const ends = await loanIdsWhere({ fieldName: 'description', operator: 'endsWith', value: '(acme)' });
    expect(ends.ids).toEqual(idsOf((l) => l.description.endsWith('(acme)')));
    expect(ends.ids).toHaveLength(loans.length);
  });

  it('should treat regular-expression characters in a value as plain text', async () => {
    const { ids } = await loanIdsWhere({ fieldName: 'loanType', operator: 'contains', value: '.*' });
    expect(ids).toEqual([]);
  });

  it('should find a text on any line of a value with contains', async () => {
    const saved = await h.client(token).mutate({
      mutation: SaveDocument,
      variables: {
        objectName: LOAN,
        data: { loanType: 'Notes', description: 'first line\nthe Needle is here\r\nlast line' },
      },
    });
    const id = saved.data!.saveObject.id;
    const result = await h.client(token).query({
      query: ObjectDocument,
      variables: {
        objectName: LOAN,
        filter: {
          criteria: [
            { fieldName: 'description', operator: 'contains', value: 'needle', caseInsensitive: true },
          ],
        },
      },
    });
    expect(result.error).toBeUndefined();
    expect(result.data!.object?.id).toBe(id);
  });

  it('should keep working for clients that send "matches" as a string, or no operator', async () => {
    const id = loans[1]!.id;
    expect((await loanIdsWhere({ fieldName: '_id', operator: 'matches', value: `${id}|x` })).ids).toEqual([
      id,
    ]);
    expect((await loanIdsWhere({ fieldName: '_id', value: id })).ids).toEqual([id]);
  });
});

describe('filters the gateway refuses, before any upstream call', () => {
  it.each<[string, Criterion, string]>([
    ['in without values', { fieldName: '_id', operator: 'in', value: 'x' }, 'filter.criteria[0].values'],
    ['contains without a value', { fieldName: 'a', operator: 'contains' }, 'filter.criteria[0].value'],
    [
      'more than 100 values',
      { fieldName: '_id', operator: 'in', values: Array.from({ length: 101 }, (_, i) => `id${i}`) },
      'more than 100 values',
    ],
    [
      'a compiled pattern over 4000 characters',
      { fieldName: 'a', operator: 'contains', value: 'x'.repeat(1000), caseInsensitive: true },
      'more than 4000',
    ],
    [
      'a matches pattern over the guard cap',
      { fieldName: 'a', value: 'a'.repeat(600) },
      'more than the 512 accepted',
    ],
  ])('should refuse %s with BAD_USER_INPUT naming filter', async (_case, criterion, message) => {
    const { ids, error } = await loanIdsWhere(criterion);
    expect(ids).toBeUndefined();
    expectBadUserInput(error, 'filter', message);
    expect(h.totalUpstreamCalls()).toBe(0);
  });

  it("should refuse a pattern the guard finds risky with the guard's reason, in object and objects", async () => {
    await withRiskyPatterns(h, 'nested quantifier (a+)+ can backtrack exponentially', async (check) => {
      const criteria = [{ fieldName: 'loanType', value: '(a+)+$' }];
      const many = await loanIdsWhere(...criteria);
      const one = await h
        .client(token)
        .query({ query: ObjectDocument, variables: { objectName: LOAN, filter: { criteria } } });
      for (const error of [many.error, one.error]) {
        expect(errorCodes(error)).toEqual(['BAD_USER_INPUT']);
        expect(firstError(error).message).toContain('nested quantifier (a+)+ can backtrack exponentially');
      }
      // Checked on the share of the session's user: the demo account, as its form login (by mobile) is too.
      expect(check).toHaveBeenCalledWith('(a+)+$', DEMO_USER_KEY);
      expect(h.totalUpstreamCalls()).toBe(0);
    });
  });

  it('should refuse an operator that is not one of the enum as a validation error', async () => {
    const { error } = await loanIdsWhere({ fieldName: 'a', operator: 'regex', value: 'x' });
    expect(errorCodes(error)).toEqual(['BAD_USER_INPUT']);
    expect(h.totalUpstreamCalls()).toBe(0);
  });
});

describe('filters against an upstream that compares by equality (UPSTREAM_MATCHES=exact)', () => {
  let exactToken: string;
  const exact = useHarness({ emulator: { matches: 'exact' }, env: { UPSTREAM_MATCHES: 'exact' } });
  beforeAll(async () => {
    exactToken = await exact.login();
  });

  const query = (criterion: Criterion) =>
    exact.client(exactToken).query({
      query: ObjectsDocument,
      variables: { objectName: LOAN, first: 100, filter: { criteria: [criterion] } },
    });

  it('should send equals as written, so the equal values are found', async () => {
    const sample = loans[3]!.loanType;
    const result = await query({ fieldName: 'loanType', operator: 'equals', value: sample });
    expect(result.error).toBeUndefined();
    expect(result.data!.objects.totalCount).toBe(loans.filter((l) => l.loanType === sample).length);
  });

  it('should refuse the operators it cannot honour, saying why', async () => {
    exact.emulator.resetStats();
    for (const criterion of [
      { fieldName: 'loanType', operator: 'contains', value: 'Home' },
      { fieldName: '_id', operator: 'in', values: ['a'] },
      { fieldName: 'loanType', operator: 'equals', value: 'home', caseInsensitive: true },
    ]) {
      const result = await query(criterion);
      expect(errorCodes(result.error)).toEqual(['BAD_USER_INPUT']);
      expect(firstError(result.error).message).toContain('UPSTREAM_MATCHES=exact');
    }
    expect(Object.values(exact.upstreamCalls()).reduce((a, b) => a + b, 0)).toBe(0);
  });
});
