/**
 * Tenant isolation verified on every read: a record carrying another organization than the session's (at
 * `UPSTREAM_TENANT_FIELD`) is never served, whichever read brought it (by id alone or in a batch, a filtered
 * getObject, a page), the gateway is told (security log, metric), and the failure is the upstream's, not
 * its ill health.
 */
import { describe, expect, it } from 'vitest';
import { countsAgainstUpstream } from '../../src/errors/upstream-error.ts';
import { fromUpstreamError } from '../../src/errors/from-upstream-error.ts';
import { createLoaders, type Loaders } from '../../src/upstream/batching/loaders.ts';
import type { TenantMismatch } from '../../src/upstream/dialect/answers/verify-tenant.ts';
import type { UpstreamRecord, UpstreamReads } from '../../src/upstream/client/types.ts';

const ORDER = 'com.acme.Order';
const nord = { username: 'demo', apiToken: 't', applicationCode: 'demo', organizationCode: 'nord' };

function setup(records: UpstreamRecord[], options: { tenantField?: string; organizationCode?: string } = {}) {
  const told: TenantMismatch[] = [];
  const client: UpstreamReads = {
    // An upstream that ignores organizationCode: it answers every record it holds.
    getAll: () => Promise.resolve({ records, totalCount: records.length }),
    getObject: () => Promise.resolve(records[0] ?? null),
    getMetadata: () => Promise.resolve(null),
  };
  const loaders = createLoaders({
    client,
    credentials: { ...nord, organizationCode: options.organizationCode ?? nord.organizationCode },
    matchesMode: 'regex',
    matchesCase: 'sensitive',
    maxIdLength: 100,
    tenantField: options.tenantField,
    onTenantMismatch: (mismatch) => told.push(mismatch),
  });
  return { loaders, told };
}

const reads: [string, (loaders: Loaders, id: string) => Promise<unknown>][] = [
  ['an object read by id', (loaders, id) => loaders.object(ORDER, id)],
  [
    'two objects read in one batch',
    (loaders, id) => Promise.all([loaders.object(ORDER, id), loaders.object(ORDER, 'x')]),
  ],
  [
    'a filtered getObject',
    (loaders) => loaders.find(ORDER, [{ fieldName: 'status', operator: 'matches', value: 'open' }]),
  ],
  ['a page', (loaders) => loaders.page(ORDER, [], 10, 0)],
];

describe('a record of another organization', () => {
  it.each(reads)('should never be served by %s', async (_, read) => {
    const { loaders, told } = setup([{ _id: 'o1', status: 'open', organizationCode: 'sued' }]);
    const error: unknown = await read(loaders, 'o1').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: 'tenant_mismatch' });
    expect(countsAgainstUpstream(error)).toBe(false);
    expect(told).toEqual([
      expect.objectContaining({ objectName: ORDER, expected: 'nord', received: 'sued' }),
    ]);
  });

  it('should answer UPSTREAM_TENANT_MISMATCH blamed on the upstream, naming no record value', async () => {
    const { loaders } = setup([{ _id: 'o1', organizationCode: 'sued', secret: 'hush' }]);
    const error: unknown = await loaders.object(ORDER, 'o1').catch((e: unknown) => e);
    const graphql = fromUpstreamError(error as Parameters<typeof fromUpstreamError>[0]);
    expect(graphql.extensions).toMatchObject({ code: 'UPSTREAM_TENANT_MISMATCH', blame: 'upstream_refusal' });
    expect(JSON.stringify(graphql)).not.toContain('hush');
  });

  it('should serve records of the session’s organization, and records that carry none', async () => {
    const { loaders, told } = setup([{ _id: 'o1', organizationCode: 'nord' }, { _id: 'o2' }]);
    const page = await loaders.page(ORDER, [], 10, 0);
    expect(page.records.map((r) => r._id)).toEqual(['o1', 'o2']);
    expect(told).toEqual([]);
  });

  it('should read the organization where UPSTREAM_TENANT_FIELD names it', async () => {
    const { loaders } = setup([{ _id: 'o1', tenant: { code: 'sued' }, organizationCode: 'nord' }], {
      tenantField: 'tenant.code',
    });
    await expect(loaders.page(ORDER, [], 10, 0)).rejects.toMatchObject({ kind: 'tenant_mismatch' });
  });
});
