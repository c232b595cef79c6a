/**
 * `UPSTREAM_UNFILTERABLE_FIELDS`: a filter on a field the upstream's `matches` cannot see is refused before
 * sending, by name, in the typed `where` and the generic `filter`; every other filter is sent as before. Against
 * an emulator whose `matches` sees string fields only (MongoDB's `$regex`), where such a filter came back empty.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { login, saveObject } from '../support/emulator-wire.ts';
import { VALUE_FILTERS_OBJECTS_DIR } from '../support/object-fixtures.ts';

const PAYMENT = 'com.acme.Payment';
const emulator = { objectTypes: [PAYMENT], readQuirks: { matchesStringsOnly: true } };

const refusing = useHarness({
  env: {
    OBJECT_TYPES_DIR: VALUE_FILTERS_OBJECTS_DIR,
    UPSTREAM_UNFILTERABLE_FIELDS: `${PAYMENT}.amount,${PAYMENT}.paid`,
  },
  emulator,
  listen: false,
});
const unset = useHarness({ env: { OBJECT_TYPES_DIR: VALUE_FILTERS_OBJECTS_DIR }, emulator, listen: false });

beforeAll(async () => {
  for (const h of [refusing, unset]) {
    const credentials = { ...(await login(h.emulator)), organizationCode: 'acme' };
    for (const data of [
      { label: 'a', amount: 2.5, paid: true },
      { label: 'b', amount: 3, paid: false },
    ]) {
      expect((await saveObject(h.emulator, credentials, PAYMENT, data)).json.status).toBe('success');
    }
  }
});

async function payments(h: typeof refusing, where: string) {
  const token = await h.login();
  return h.post(
    `{ payments(first: 10, where: { ${where} }) { nodes { label } } }`,
    {},
    {
      authorization: `Bearer ${token}`,
    },
  );
}

describe('UPSTREAM_UNFILTERABLE_FIELDS', () => {
  it('should refuse a typed filter on a listed field by name, before any upstream read', async () => {
    refusing.emulator.resetStats();
    const answer = await payments(refusing, 'amount: { equals: 2.5 }');
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argumentName: 'where',
      reason: 'unfilterable_field',
      field: `${PAYMENT}.amount`,
      setting: 'UPSTREAM_UNFILTERABLE_FIELDS',
    });
    expect(answer.errors?.[0]?.message).toContain('"where.amount.equals"');
    expect(refusing.emulator.stats().getAll).toBe(0);
  });

  it('should refuse the generic filter on a listed field, naming its criterion', async () => {
    const token = await refusing.login();
    const answer = await refusing.post(
      `{ objects(objectName: "${PAYMENT}", first: 10, filter: { criteria: [{ fieldName: "paid", operator: in, values: ["true"] }] }) { totalCount } }`,
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      argumentName: 'filter',
      field: `${PAYMENT}.paid`,
    });
    expect(answer.errors?.[0]?.message).toContain('"filter.criteria[0].values"');
  });

  it('should still send a filter on a field not listed', async () => {
    const answer = await payments(refusing, 'label: { equals: "b" }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ payments: { nodes: [{ label: 'b' }] } });
  });

  it('should be what stands between the caller and an empty answer (unset, the same filter answers nothing)', async () => {
    const answer = await payments(unset, 'amount: { equals: 2.5 }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ payments: { nodes: [] } });
  });

  it('should refuse a malformed entry at start', async () => {
    const { loadConfig } = await import('../../src/config/load-config.ts');
    expect(() => loadConfig({ UPSTREAM_UNFILTERABLE_FIELDS: 'amount' })).toThrow(
      /UPSTREAM_UNFILTERABLE_FIELDS/,
    );
  });
});
