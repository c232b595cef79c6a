/**
 * The gateway with `UPSTREAM_MATCHES=find` in front of an emulator whose `matches` finds a pattern in any
 * part of the value (`EMULATOR_MATCHES=find`), end to end: operators keep their meaning and batched
 * references still resolve, because every pattern goes out anchored.
 */
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';

const h = useHarness({ emulator: { matches: 'find' }, env: { UPSTREAM_MATCHES: 'find' }, listen: false });

const LOANS = `query Loans($filter: FilterInput) {
  objects(objectName: "com.example.LoanType", first: 100, filter: $filter) { totalCount nodes { data } }
}`;

async function loanTypes(criteria: Record<string, unknown>[]): Promise<string[]> {
  const token = await h.login();
  const answer = await h.post(LOANS, { filter: { criteria } }, { authorization: `Bearer ${token}` });
  expect(answer.errors).toBeUndefined();
  const data = answer.data as { objects: { nodes: { data: { loanType: string } }[] } };
  return data.objects.nodes.map((n) => n.data.loanType);
}

describe('UPSTREAM_MATCHES=find, end to end', () => {
  it('should answer equals with whole values only', async () => {
    expect(await loanTypes([{ fieldName: 'loanType', operator: 'equals', value: 'Home' }])).toEqual([]);
    expect(await loanTypes([{ fieldName: 'loanType', operator: 'equals', value: 'Home Fixed' }])).toEqual([
      'Home Fixed',
    ]);
  });

  it('should answer startsWith, endsWith and a caller pattern at the start and end of values only', async () => {
    const starts = await loanTypes([{ fieldName: 'loanType', operator: 'startsWith', value: 'Fixed' }]);
    expect(starts).toEqual([]);
    const ends = await loanTypes([{ fieldName: 'loanType', operator: 'endsWith', value: 'Fixed' }]);
    expect(ends.length).toBeGreaterThan(0);
    expect(ends.every((t) => t.endsWith('Fixed'))).toBe(true);
    const pattern = await loanTypes([{ fieldName: 'loanType', operator: 'matches', value: 'Car' }]);
    expect(pattern).toEqual([]);
  });

  it('should still resolve batched references by id', async () => {
    const token = await h.login();
    const answer = await h.post(
      `{ objects(objectName: "com.example.Order", first: 20) {
          nodes { data customer: ref(path: "customer.id", objectName: "com.example.Customer") { id data } } } }`,
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(answer.errors).toBeUndefined();
    const nodes = (
      answer.data as {
        objects: { nodes: { data: { customer: { id: string } }; customer: { id: string } | null }[] };
      }
    ).objects.nodes;
    expect(nodes).toHaveLength(20);
    for (const node of nodes) expect(node.customer?.id).toBe(node.data.customer.id);
  });
});
