/**
 * Typed filters take the field's own type (`IntFilter`, `FloatFilter`, `BooleanFilter`, `IDFilter`), end to
 * end: the gateway and the emulator on a fixture type (its own `OBJECT_TYPES_DIR`, so the shipped types can
 * change freely), a real Apollo Client, literals written inline as a front-end writes them. Each answer is
 * held to the records the test saved, filtered in JavaScript by value.
 */
import { gql, type TypedDocumentNode } from '@apollo/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { errorCodes, firstError } from '../support/graphql-errors.ts';
import { VALUE_FILTERS_OBJECTS_DIR as FIXTURE } from '../support/object-fixtures.ts';
import { SaveDocument } from '../support/operations.ts';

const PAYMENT = 'com.acme.Payment';

interface Payment {
  id: string;
  label: string | null;
  amount: number | null;
  installments: number | null;
  paid: boolean | null;
  reference: string | null;
  dueAt: string | null;
}

/** What the test saves, as JSON: numbers as JSON numbers, one reference as a number. */
const RECORDS: Record<string, unknown>[] = [
  {
    label: 'a',
    amount: 2.5,
    installments: 3,
    paid: true,
    reference: '42',
    dueAt: '2024-01-15T00:00:00.000Z',
  },
  { label: 'b', amount: 25, installments: 30, paid: false, reference: 42, dueAt: '2024-01-15T00:00:00Z' },
  {
    label: 'c',
    amount: 0.25,
    installments: -3,
    paid: true,
    reference: '4.2',
    dueAt: '2024-01-15T00:00:00.001Z',
  },
  { label: 'd', amount: 2.05, installments: 0, reference: 'x42', dueAt: '2024-03-01T12:30:00.500+00:00' },
  { label: 'e', amount: -2.5, installments: 3, paid: false },
  { label: 'f', amount: 3, installments: 300 },
  { label: 'g', amount: 1.5e-7, paid: true },
  { label: 'h', amount: 0, installments: 1 },
];

let token: string;
let saved: Payment[];

const h = useHarness({ env: { OBJECT_TYPES_DIR: FIXTURE }, emulator: { objectTypes: [PAYMENT] } });
beforeAll(async () => {
  token = await h.login();
  for (const data of RECORDS) {
    const result = await h
      .client(token)
      .mutate({ mutation: SaveDocument, variables: { objectName: PAYMENT, data } });
    expect(result.error).toBeUndefined();
  }
  saved = (await paymentsWhere('')).payments!;
  expect(saved).toHaveLength(RECORDS.length);
});

/** `payments(where: { … })` with the condition written inline, as the issue's front-end wrote it. */
async function paymentsWhere(where: string) {
  const query: TypedDocumentNode<{ payments: { nodes: Payment[] } }> = gql(`
    query Payments { payments(first: 100${where === '' ? '' : `, where: { ${where} }`}) {
      nodes { id label amount installments paid reference dueAt }
    } }
  `);
  const result = await h.client(token).query({ query });
  return { payments: result.data?.payments.nodes, error: result.error };
}

/** The instant of `dueAt`, or `undefined`. */
const at = (p: Payment) => (p.dueAt === null ? undefined : Date.parse(p.dueAt));
const labels = (payments: Payment[] | undefined) => (payments ?? []).map((p) => p.label).sort();
const labelsWhere = (keep: (p: Payment) => boolean) => labels(saved.filter(keep));

describe('typed value filters', () => {
  it.each([
    ['amount: { equals: 2.5 }', (p: Payment) => p.amount === 2.5],
    ['amount: { equals: 25 }', (p: Payment) => p.amount === 25],
    ['amount: { equals: -2.5 }', (p: Payment) => p.amount === -2.5],
    ['amount: { equals: 3.0 }', (p: Payment) => p.amount === 3],
    ['amount: { equals: 1.5e-7 }', (p: Payment) => p.amount === 1.5e-7],
    ['amount: { equals: 0 }', (p: Payment) => p.amount === 0],
    ['amount: { in: [2.5, 0.25, 7] }', (p: Payment) => p.amount === 2.5 || p.amount === 0.25],
    ['amount: { in: [] }', () => false],
    ['installments: { equals: 3 }', (p: Payment) => p.installments === 3],
    ['installments: { equals: -3 }', (p: Payment) => p.installments === -3],
    ['installments: { in: [0, 300] }', (p: Payment) => p.installments === 0 || p.installments === 300],
    ['paid: { equals: true }', (p: Payment) => p.paid === true],
    ['paid: { equals: false }', (p: Payment) => p.paid === false],
    ['paid: { in: [true, false] }', (p: Payment) => p.paid !== null],
    ['reference: { equals: "42" }', (p: Payment) => p.reference === '42'],
    ['reference: { equals: 42 }', (p: Payment) => p.reference === '42'],
    ['reference: { in: ["4.2", "x42"] }', (p: Payment) => p.reference === '4.2' || p.reference === 'x42'],
    ['amount: { equals: 2.5 }, paid: { equals: true }', (p: Payment) => p.amount === 2.5 && p.paid === true],
    ['dueAt: { equals: "2024-01-15T00:00:00Z" }', (p: Payment) => at(p) === Date.UTC(2024, 0, 15)],
    ['dueAt: { equals: "2024-01-15T02:00:00+02:00" }', (p: Payment) => at(p) === Date.UTC(2024, 0, 15)],
    [
      'dueAt: { in: ["2024-01-15T00:00:00.001Z", "2024-03-01T12:30:00.5Z"] }',
      (p: Payment) =>
        at(p) === Date.UTC(2024, 0, 15, 0, 0, 0, 1) || at(p) === Date.UTC(2024, 2, 1, 12, 30, 0, 500),
    ],
  ])('should answer exactly the records where %s', async (where, keep) => {
    const { payments, error } = await paymentsWhere(where);
    expect(error).toBeUndefined();
    expect(labels(payments)).toEqual(labelsWhere(keep));
  });

  it('should find at least one record for most conditions (the table above is not vacuous)', () => {
    expect(labelsWhere((p) => p.amount === 2.5)).toEqual(['a']);
    expect(labelsWhere((p) => p.reference === '42')).toEqual(['a', 'b']);
  });

  it.each([
    ['a text for a Float', 'amount: { equals: "2.5" }', 'Float cannot represent non numeric value'],
    ['a text for a Boolean', 'paid: { equals: "true" }', 'Boolean cannot represent a non boolean value'],
    ['a fraction for an Int', 'installments: { equals: 2.5 }', 'Int cannot represent non-integer value'],
    [
      'a text operator on a number',
      'amount: { contains: "2" }',
      'Field "contains" is not defined by type "FloatFilter"',
    ],
    ['a date without a time', 'dueAt: { equals: "2024-01-15" }', 'DateTime cannot represent'],
  ])('should refuse %s before any upstream call', async (_case, where, message) => {
    h.emulator.resetStats();
    const { error } = await paymentsWhere(where);
    expect(errorCodes(error)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(firstError(error).message).toContain(message);
    expect(h.totalUpstreamCalls()).toBe(0);
  });

  it('should store a DateTime input in UTC, as its filter matches it', async () => {
    const query: TypedDocumentNode<{ savePayment: { object: Payment | null } }> = gql(`
      mutation { savePayment(input: { label: "z", dueAt: "2025-06-30T23:59:59.250-04:00" }) { object { id dueAt } } }
    `);
    const result = await h.client(token).mutate({ mutation: query });
    expect(result.error).toBeUndefined();
    expect(result.data!.savePayment.object!.dueAt).toBe('2025-07-01T03:59:59.250Z');
    const { payments } = await paymentsWhere('dueAt: { equals: "2025-07-01T03:59:59.25Z" }');
    expect(labels(payments)).toEqual(['z']);
  });
});
