/**
 * Which types `objects:infer` asks the upstream about for references: only the type a field is named after,
 * and a type the upstream refuses once is reported and not asked again (recorded calls, as dataloader's
 * tests record batches).
 */
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import type { UpstreamClient } from '../../src/upstream/client/types.ts';
import { collectFieldStats } from '../infer/field-stats.ts';
import { findRefs, namesOfIdPath, typesNamedBy, type KnownType } from '../infer/find-refs.ts';

const KNOWN: KnownType[] = [
  { typeName: 'Customer', objectName: 'com.example.Customer' },
  { typeName: 'LoanType', objectName: 'com.example.LoanType' },
  { typeName: 'Invoice', objectName: 'com.acme.Invoice' },
  { typeName: 'AcmeProduct', objectName: 'com.acme.Product' },
];

describe('typesNamedBy', () => {
  it.each([
    [['customer', 'id'], ['Customer']],
    [['customerId'], ['Customer']],
    [['customer_id'], ['Customer']],
    [['loanTypeId'], ['LoanType']],
    [['loan_type', 'id'], ['LoanType']],
    [['productId'], ['AcmeProduct']],
    [['billing', 'invoice', 'id'], ['Invoice']],
    [['buyer', 'id'], []],
    [['id'], []],
  ])('should name, for %j, %j', (segments, types) => {
    expect(typesNamedBy(segments, KNOWN).map((t) => t.typeName)).toEqual(types);
  });

  it('should read the path without its id part', () => {
    expect(namesOfIdPath(['order', 'customer', 'id'])).toEqual(['ordercustomer', 'customer']);
  });
});

describe('findRefs', () => {
  /** A client whose getAll answers `exists` for known object names and refuses the others; records calls. */
  function recordingClient(served: ReadonlySet<string>) {
    const calls: string[] = [];
    const client: Pick<UpstreamClient, 'getAll' | 'getObject'> = {
      getAll: (_credentials, objectName, _criteria, pageSize) => {
        calls.push(objectName);
        if (!served.has(objectName))
          return Promise.reject(
            new UpstreamError('rejected_input', 'input refused', {
              operation: 'getAll',
              upstreamMessage: `java.lang.ClassNotFoundException: ${objectName}`,
            }),
          );
        return Promise.resolve({ records: [], totalCount: pageSize });
      },
      getObject: () => Promise.resolve(null),
    };
    return { client, calls };
  }

  const credentials = { username: 'u', apiToken: 't', applicationCode: 'a', organizationCode: 'o' };
  const stats = collectFieldStats([
    { customer: { id: 'c1' }, invoiceId: 'i1', buyer: { id: 'b1' }, note: 'x' },
    { customer: { id: 'c2' }, invoiceId: 'i2', buyer: { id: 'b2' }, note: 'y' },
  ]);

  it('should ask only the types the fields name, and find the references there', async () => {
    const { client, calls } = recordingClient(new Set(['com.example.Customer', 'com.acme.Invoice']));
    const found = await findRefs(stats, { client, credentials, matchesMode: 'regex', knownTypes: KNOWN });
    expect(found.refs.map((r) => [r.path, r.typeName])).toEqual([
      ['customer.id', 'Customer'],
      ['invoiceId', 'Invoice'],
    ]);
    expect(found.refused).toEqual([]);
    expect(calls).toEqual(['com.example.Customer', 'com.acme.Invoice']);
  });

  it('should report a named type the upstream refuses, leave the field a value, and go on', async () => {
    const { client, calls } = recordingClient(new Set(['com.acme.Invoice']));
    const twice = collectFieldStats([{ customer: { id: 'c1' }, customerId: 'c1', invoiceId: 'i1' }]);
    const found = await findRefs(twice, { client, credentials, matchesMode: 'regex', knownTypes: KNOWN });
    expect(found.refs.map((r) => r.typeName)).toEqual(['Invoice']);
    expect(found.refused).toEqual([
      {
        objectName: 'com.example.Customer',
        reason: 'java.lang.ClassNotFoundException: com.example.Customer',
      },
    ]);
    // Refused once, never asked again (customerId names it too).
    expect(calls).toEqual(['com.example.Customer', 'com.acme.Invoice']);
  });

  it('should stop on a failure that is not a refusal of the type', async () => {
    const client: Pick<UpstreamClient, 'getAll' | 'getObject'> = {
      getAll: () => Promise.reject(new UpstreamError('unavailable', 'unavailable', { operation: 'getAll' })),
      getObject: () => Promise.resolve(null),
    };
    await expect(
      findRefs(stats, { client, credentials, matchesMode: 'regex', knownTypes: KNOWN }),
    ).rejects.toThrow(/unavailable/);
  });
});
