/** The typed mutations end to end: inputs validated before any write, records stored at their paths. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { errorCodes, firstError } from '../support/graphql-errors.ts';
import { ObjectDocument, ObjectsDocument } from '../support/operations.ts';
import {
  SaveLoanTypeDocument,
  SaveOrderDocument,
  UpdateCustomerDocument,
  UpdateLoanTypeDocument,
  withoutTypename,
} from '../support/typed-operations.ts';

const LOAN = 'com.example.LoanType';
let token: string;

const h = useHarness({ resetStatsEachTest: true });
beforeAll(async () => {
  token = await h.login();
});

const writes = (): number => (h.upstreamCalls().save ?? 0) + (h.upstreamCalls().update ?? 0);

async function generic(objectName: string, id: string): Promise<Record<string, unknown>> {
  const result = await h.client(token).query({ query: ObjectDocument, variables: { objectName, id } });
  return result.data!.object!.data;
}

async function firstId(objectName: string): Promise<string> {
  const page = await h.client(token).query({ query: ObjectsDocument, variables: { objectName, first: 1 } });
  return page.data!.objects.nodes[0]!.id;
}

describe('save', () => {
  it('should create a loan type and read it back, typed and generic views agreeing', async () => {
    const saved = await h.client(token).mutate({
      mutation: SaveLoanTypeDocument,
      variables: { input: { loanType: 'Typed Fixed', description: 'created typed', rate: 3.25 } },
    });
    expect(saved.error).toBeUndefined();
    const { id, object } = saved.data!.saveLoanType;
    expect(withoutTypename(object)).toEqual({
      id,
      loanType: 'Typed Fixed',
      description: 'created typed',
      rate: 3.25,
    });
    expect(await generic(LOAN, id)).toEqual({
      _id: id,
      loanType: 'Typed Fixed',
      description: 'created typed',
      rate: 3.25,
    });
  });

  it('should store a reference at its record path and resolve it on read', async () => {
    const customerId = await firstId('com.example.Customer');
    const saved = await h.client(token).mutate({
      mutation: SaveOrderDocument,
      variables: { input: { number: 'ORD-TYPED', total: 12.5, status: 'NEW', customer: customerId } },
    });
    expect(saved.error).toBeUndefined();
    const { id, object } = saved.data!.saveOrder;
    expect(object?.customer?.id).toBe(customerId);
    expect(object?.customer?.name).toEqual(expect.any(String));
    expect(await generic('com.example.Order', id)).toMatchObject({
      customer: { id: customerId },
      number: 'ORD-TYPED',
    });
  });

  it.each([
    [
      'a string where Float is declared',
      { loanType: 'x', rate: 'high' },
      'at "input.rate"; Float cannot represent',
    ],
    [
      'a missing non-null field',
      { rate: 2 },
      'Field "loanType" of required type "String!" was not provided.',
    ],
    [
      'a field the type does not declare',
      { loanType: 'x', colour: 'red' },
      'Field "colour" is not defined by type "LoanTypeInput".',
    ],
  ])('should refuse %s before any write', async (_case, input, message) => {
    const result = await h.client(token).mutate({ mutation: SaveLoanTypeDocument, variables: { input } });
    expect(errorCodes(result.error)).toEqual(['BAD_USER_INPUT']);
    expect(firstError(result.error).message).toContain(message);
    expect(writes()).toBe(0);
  });
});

describe('update', () => {
  it('should change the given fields only and answer what changed', async () => {
    const saved = await h.client(token).mutate({
      mutation: SaveLoanTypeDocument,
      variables: { input: { loanType: 'To change', description: 'before', rate: 1 } },
    });
    const id = saved.data!.saveLoanType.id;
    const updated = await h.client(token).mutate({
      mutation: UpdateLoanTypeDocument,
      variables: { id, input: { rate: 4.5, description: null } },
    });
    expect(updated.error).toBeUndefined();
    expect(updated.data!.updateLoanType.updatedFields).toEqual({ rate: 4.5, description: null });
    expect(withoutTypename(updated.data!.updateLoanType.object)).toEqual({
      id,
      loanType: 'To change',
      description: null,
      rate: 4.5,
    });
  });

  it('should write a nested @field path into the current object, keeping its other keys', async () => {
    const id = await firstId('com.example.Customer');
    const before = (await generic('com.example.Customer', id)) as {
      address: { city: string; country: string };
    };
    const updated = await h.client(token).mutate({
      mutation: UpdateCustomerDocument,
      variables: { id, input: { city: 'Porto' } },
    });
    expect(updated.error).toBeUndefined();
    expect(updated.data!.updateCustomer.object).toMatchObject({
      city: 'Porto',
      country: before.address.country,
    });
    expect(await generic('com.example.Customer', id)).toMatchObject({
      address: { city: 'Porto', country: before.address.country },
    });
  });

  it.each([
    [
      'null for a non-null field',
      { loanType: null },
      '"input.loanType" cannot be null: LoanType.loanType is String!.',
    ],
    ['no field at all', {}, '"input" must name at least one field.'],
  ])('should refuse %s with BAD_USER_INPUT before any upstream call', async (_case, input, message) => {
    const id = await firstId(LOAN);
    h.emulator.resetStats();
    const result = await h
      .client(token)
      .mutate({ mutation: UpdateLoanTypeDocument, variables: { id, input } });
    expect(errorCodes(result.error)).toEqual(['BAD_USER_INPUT']);
    expect(firstError(result.error).message).toBe(message);
    expect(Object.values(h.upstreamCalls()).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('should answer NOT_FOUND for an object that does not exist', async () => {
    const missing = '000000000000000000000000';
    const loan = await h.client(token).mutate({
      mutation: UpdateLoanTypeDocument,
      variables: { id: missing, input: { rate: 1 } },
    });
    // A nested path needs the current object first: the gateway itself knows it is absent.
    const customer = await h.client(token).mutate({
      mutation: UpdateCustomerDocument,
      variables: { id: missing, input: { city: 'Nowhere' } },
    });
    expect([errorCodes(loan.error), errorCodes(customer.error)]).toEqual([['NOT_FOUND'], ['NOT_FOUND']]);
    // Every update reads its object first (an upstream may update by _id whatever the organization): an id
    // the session's reads do not show is never sent.
    expect(writes()).toBe(0);
  });
});
