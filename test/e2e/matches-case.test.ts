/**
 * An upstream whose `matches` ignores case (`EMULATOR_MATCHES_CASE=insensitive`, as `Pattern.CASE_INSENSITIVE`),
 * end to end through a real GraphQL client: with `UPSTREAM_MATCHES_CASE=insensitive` every read is exact
 * (the client sends `(?-i)` first); without it, a read by id that the upstream answers in another case is
 * `UPSTREAM_DIALECT_MISMATCH` naming the setting, and so is an `equals` answered with another case of its text.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { dialectMismatch } from '../support/dialect-mismatch.ts';
import { useHarness, type Harness } from '../support/gateway-harness.ts';
import { firstError } from '../support/graphql-errors.ts';
import { listObjects } from '../support/list-objects.ts';
import {
  ObjectDocument,
  ObjectsDocument,
  OrdersWithCustomersDocument,
  SaveDocument,
} from '../support/operations.ts';

const LOAN = 'com.example.LoanType';
const STATUSES = ['open', 'Open', 'OPEN'];

/** Saves one loan type per status, before the file's tests; answers the token and an id holding a letter. */
function useCaseVariants(h: Harness): { token: string; id: string } {
  const session = { token: '', id: '' };
  beforeAll(async () => {
    session.token = await h.login();
    for (const status of STATUSES) {
      const saved = await h.client(session.token).mutate({
        mutation: SaveDocument,
        variables: { objectName: LOAN, data: { loanType: 'Case probe', status } },
      });
      expect(saved.error).toBeUndefined();
    }
    const loans = await listObjects(h, session.token, LOAN);
    session.id = loans.map((n) => n.id).find((id) => /[a-z]/.test(id)) ?? '';
    expect(session.id).not.toBe('');
  });
  return session;
}

/** The first `first` loans that meet `criterion`, as the client answers them. */
function loansWhere(h: Harness, token: string, criterion: Record<string, unknown>, first = 100) {
  return h.client(token).query({
    query: ObjectsDocument,
    variables: { objectName: LOAN, first, filter: { criteria: [criterion as never] } },
  });
}

async function statusesWhere(h: Harness, token: string, criterion: Record<string, unknown>) {
  const result = await loansWhere(h, token, criterion);
  expect(result.error).toBeUndefined();
  return (result.data?.objects.nodes ?? []).map((n) => (n.data as { status?: string }).status).sort();
}

describe('with UPSTREAM_MATCHES_CASE=insensitive (the embedded emulator follows it)', () => {
  const h = useHarness({ env: { UPSTREAM_MATCHES_CASE: 'insensitive' }, listen: false });
  const session = useCaseVariants(h);

  it('should answer equals "open" with "open" alone, and caseInsensitive with every case', async () => {
    expect(
      await statusesWhere(h, session.token, { fieldName: 'status', operator: 'equals', value: 'open' }),
    ).toEqual(['open']);
    const any = { fieldName: 'status', operator: 'in', values: ['OPEN'], caseInsensitive: true };
    expect(await statusesWhere(h, session.token, any)).toEqual([...STATUSES].sort());
  });

  it("should refuse a caller's inline flag, which could turn the gateway's (?-i) back off", async () => {
    const result = await loansWhere(
      h,
      session.token,
      { fieldName: 'status', operator: 'matches', value: '(?i)open' },
      5,
    );
    expect(firstError(result.error).extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('should answer an id asked in another case with null, and resolve batched references', async () => {
    const other = await h.client(session.token).query({
      query: ObjectDocument,
      variables: { objectName: LOAN, id: session.id.toUpperCase() },
    });
    expect(other.error).toBeUndefined();
    expect(other.data?.object).toBeNull();
    const orders = await h
      .client(session.token)
      .query({ query: OrdersWithCustomersDocument, variables: { first: 20 } });
    expect(orders.error).toBeUndefined();
    for (const node of orders.data?.objects.nodes ?? []) expect(node.ref?.id).toBe(node.customerId);
  });
});

describe('without the setting', () => {
  const h = useHarness({ emulator: { matchesCase: 'insensitive' }, listen: false });
  const session = useCaseVariants(h);

  it('should answer a read by id answered in another case with UPSTREAM_DIALECT_MISMATCH naming the setting', async () => {
    const result = await h.client(session.token).query({
      query: ObjectDocument,
      variables: { objectName: LOAN, id: session.id.toUpperCase() },
    });
    const error = firstError(result.error);
    expect(error.extensions).toMatchObject(dialectMismatch('matches_case', 'UPSTREAM_MATCHES_CASE'));
    expect(error.message).toContain('set UPSTREAM_MATCHES_CASE=insensitive');
    // The id in its own case is still read right: only the contradicting answer is refused.
    const own = await h
      .client(session.token)
      .query({ query: ObjectDocument, variables: { objectName: LOAN, id: session.id } });
    expect(own.data?.object?.id).toBe(session.id);
  });

  it('should answer a filtered equals that the upstream answers in another case with UPSTREAM_DIALECT_MISMATCH, never the other records', async () => {
    const result = await loansWhere(h, session.token, {
      fieldName: 'status',
      operator: 'equals',
      value: 'open',
    });
    expect(result.data?.objects).toBeUndefined();
    expect(firstError(result.error).extensions).toMatchObject({
      code: 'UPSTREAM_DIALECT_MISMATCH',
      assumption: 'matches_case',
      setting: 'UPSTREAM_MATCHES_CASE',
    });
  });
});
