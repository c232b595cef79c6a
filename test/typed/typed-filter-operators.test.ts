/**
 * The typed API's `FieldFilter` operators end to end: a real Apollo Client against the gateway and the
 * emulator's demo types, with the upstream calls counted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { errorCodes, expectBadUserInput, firstError } from '../support/graphql-errors.ts';
import {
  LoanTypesDocument,
  OrdersDocument,
  type LoanTypeResult,
  type OrderResult,
} from '../support/typed-operations.ts';
import { withRiskyPatterns } from '../support/risky-patterns.ts';
import { DEMO_USER_KEY } from '../support/demo-account.ts';

let token: string;
let loans: LoanTypeResult[];
let orders: OrderResult[];

const h = useHarness({ resetStatsEachTest: true });
beforeAll(async () => {
  token = await h.login();
  const loanPage = await h.client(token).query({ query: LoanTypesDocument, variables: { first: 100 } });
  loans = loanPage.data!.loanTypes.nodes.map((n) => n!);
  const orderPage = await h.client(token).query({ query: OrdersDocument, variables: { first: 100 } });
  orders = orderPage.data!.orders.nodes.map((n) => n!);
});

async function loansWhere(where: Record<string, unknown>) {
  const result = await h.client(token).query({ query: LoanTypesDocument, variables: { first: 100, where } });
  return { ids: result.data?.loanTypes.nodes.map((n) => n!.id), error: result.error };
}

const loanIds = (keep: (loan: LoanTypeResult) => boolean) => loans.filter(keep).map((l) => l.id);

describe('typed filter operators', () => {
  it('should find values containing a text in any case', async () => {
    const { ids, error } = await loansWhere({ loanType: { contains: 'xPReSs', caseInsensitive: true } });
    expect(error).toBeUndefined();
    const expected = loanIds((l) => l.loanType.toLowerCase().includes('xpress'));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids).toEqual(expected);
  });

  it('should combine the conditions of one FieldFilter with AND', async () => {
    const { ids } = await loansWhere({ loanType: { startsWith: 'Home', endsWith: 'Fixed' } });
    expect(ids).toEqual(loanIds((l) => l.loanType.startsWith('Home') && l.loanType.endsWith('Fixed')));
    expect(ids!.length).toBeGreaterThan(0);
  });

  it('should find the listed ids with in, and references by the ids of their targets', async () => {
    const wanted = [loans[0]!.id, loans[9]!.id];
    expect((await loansWhere({ id: { in: wanted } })).ids).toEqual(wanted);
    const customerIds = [...new Set(orders.slice(0, 3).map((o) => o.customer!.id))];
    const result = await h.client(token).query({
      query: OrdersDocument,
      variables: { first: 100, where: { customer: { id: { in: customerIds } } } },
    });
    const found = result.data!.orders.nodes.map((n) => n!);
    for (const order of found) expect(customerIds).toContain(order.customer!.id);
    // `orders` holds the first 100 orders only: their matches come first, in the same order.
    const expected = orders.filter((o) => customerIds.includes(o.customer!.id)).map((o) => o.id);
    expect(found.map((o) => o.id).slice(0, expected.length)).toEqual(expected);
  });

  it('should treat the text of equals and in literally, case-insensitively when asked', async () => {
    const sample = loans[5]!.loanType;
    const { ids } = await loansWhere({
      loanType: { in: [sample.toUpperCase(), 'A|B'], caseInsensitive: true },
    });
    expect(ids).toEqual(loanIds((l) => l.loanType === sample));
    expect((await loansWhere({ loanType: { equals: sample.toUpperCase() } })).ids).toEqual([]);
  });
});

describe('typed filters the gateway refuses, before any upstream call', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['caseInsensitive alone', { loanType: { caseInsensitive: true } }, 'where.loanType.caseInsensitive'],
    ['caseInsensitive with matches only', { loanType: { matches: 'H.*', caseInsensitive: true } }, 'matches'],
    ['an in over 100 values', { id: { in: Array.from({ length: 101 }, String) } }, 'where.id.in'],
    [
      'a matches pattern over the guard cap',
      { description: { matches: 'x'.repeat(600) } },
      'more than the 512 accepted',
    ],
  ])('should refuse %s with BAD_USER_INPUT naming where', async (_case, where, message) => {
    const { error } = await loansWhere(where);
    expectBadUserInput(error, 'where', message);
    expect(h.totalUpstreamCalls()).toBe(0);
  });

  it("should refuse a pattern the guard finds risky with the guard's reason", async () => {
    await withRiskyPatterns(h, 'overlapping alternatives under a repetition', async (check) => {
      const { error } = await loansWhere({ loanType: { matches: '(a|a)*b', contains: 'Home' } });
      expect(errorCodes(error)).toEqual(['BAD_USER_INPUT']);
      expect(firstError(error).message).toContain('"where.loanType.matches"');
      expect(firstError(error).message).toContain('overlapping alternatives under a repetition');
      // Checked on the share of the session's user: the demo account.
      expect(check).toHaveBeenCalledWith('(a|a)*b', DEMO_USER_KEY);
      expect(h.totalUpstreamCalls()).toBe(0);
    });
  });
});
