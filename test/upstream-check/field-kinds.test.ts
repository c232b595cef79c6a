/**
 * The check probes every declared type's number, boolean, date and reference fields, and the gateway refuses
 * by name what the check found it cannot filter: against an emulator whose `matches` sees string fields only
 * (MongoDB's `$regex`: a number, a boolean, a `{"$date"}` or a `{"$oid"}` never matches), the check names
 * each such field in `UPSTREAM_UNFILTERABLE_FIELDS`, and a gateway started with that setting answers a typed
 * filter on one with `BAD_USER_INPUT` naming the field and the setting, where it answered empty before.
 */
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../emulator/index.ts';
import { startHarness } from '../support/gateway-harness.ts';
import { VALUE_FILTERS_OBJECTS_DIR } from '../support/object-fixtures.ts';
import { filter, getAll, ids, login, saveObject } from '../support/emulator-wire.ts';
import { runUpstreamCheck, verdictOf } from './check-command.ts';
import { useCheckEmulators } from './check-emulators.ts';

const PAYMENT = 'com.acme.Payment';

/** Payments as a MongoDB entity holds them: numbers, booleans, `{"$date"}` and `{"$oid"}` as such. */
const RECORDS: Record<string, unknown>[] = [
  {
    label: 'a',
    amount: 2.5,
    installments: 3,
    paid: true,
    reference: { $oid: '65a1f0c2e4b0a1b2c3d4e5f6' },
    dueAt: { $date: '2024-01-15T00:00:00.000Z' },
  },
  {
    label: 'b',
    amount: 25,
    installments: 30,
    paid: false,
    reference: { $oid: '65a1f0c2e4b0a1b2c3d4e5f7' },
    dueAt: { $date: '2024-02-15T00:00:00.000Z' },
  },
];

/** The same payments as text-keeping upstreams hold them: references and dates as strings. */
const PLAIN: Record<string, unknown>[] = RECORDS.map((r) => ({
  ...r,
  reference: (r.reference as { $oid: string }).$oid,
  dueAt: (r.dueAt as { $date: string }).$date,
}));

const FIELDS = ['amount', 'installments', 'paid', 'reference', 'dueAt'].map((f) => `${PAYMENT}.${f}`);

const startEmulator = useCheckEmulators();

async function seeded(options: { matchesStringsOnly: boolean }, records = RECORDS): Promise<RunningEmulator> {
  const emulator = await startEmulator({
    objectTypes: [PAYMENT],
    readQuirks: { matchesStringsOnly: options.matchesStringsOnly },
  });
  const credentials = { ...(await login(emulator)), organizationCode: 'acme' };
  for (const data of records) {
    const saved = await saveObject(emulator, credentials, PAYMENT, data);
    expect(saved.json.status, saved.body).toBe('success');
  }
  return emulator;
}

const checkOf = (emulator: RunningEmulator) =>
  runUpstreamCheck({ url: emulator.url, env: { OBJECT_TYPES_DIR: VALUE_FILTERS_OBJECTS_DIR } }, []);

describe('an emulator whose matches sees string fields only', () => {
  it('should never match a number, boolean or extended-JSON value, and still match text', async () => {
    const emulator = await seeded({ matchesStringsOnly: true });
    const credentials = await login(emulator);
    const read = (field: string, value: string) =>
      getAll(emulator, { ...credentials, organizationCode: 'acme' }, PAYMENT, {
        filterCommand: filter([field, value]),
      });
    expect(ids(await read('amount', '2\\.5'))).toEqual([]);
    expect(ids(await read('paid', 'true'))).toEqual([]);
    expect(ids(await read('reference', '.*65a1.*'))).toEqual([]);
    expect(ids(await read('label', 'a'))).toHaveLength(1);
  });
});

describe('the check against it', () => {
  it('should name every number, boolean, date and reference field it cannot filter, and the gateway refuse them by name', async () => {
    const emulator = await seeded({ matchesStringsOnly: true });
    const run = await checkOf(emulator);
    expect(run.stderr).toBe('');
    expect(verdictOf(run, 'field kinds: Payment')).toBe('differs');
    expect(verdictOf(run, 'unfilterable fields')).toBe('differs');
    expect((run.env.UPSTREAM_UNFILTERABLE_FIELDS ?? '').split(',').sort()).toEqual([...FIELDS].sort());

    // Run again with its advice set, it says so.
    const again = await runUpstreamCheck(
      { url: emulator.url, env: { OBJECT_TYPES_DIR: VALUE_FILTERS_OBJECTS_DIR, ...run.env } },
      [],
    );
    expect(verdictOf(again, 'unfilterable fields')).toBe('as-assumed');
    expect(again.env.UPSTREAM_UNFILTERABLE_FIELDS).toBe(run.env.UPSTREAM_UNFILTERABLE_FIELDS);

    const h = await startHarness({
      upstream: emulator,
      env: { OBJECT_TYPES_DIR: VALUE_FILTERS_OBJECTS_DIR, ...run.env },
      listen: false,
    });
    try {
      const token = await h.login();
      const ask = (where: string) =>
        h.post(
          `{ payments(first: 10, where: { ${where} }) { nodes { label } } }`,
          {},
          {
            authorization: `Bearer ${token}`,
          },
        );
      for (const where of [
        'amount: { equals: 2.5 }',
        'installments: { in: [3] }',
        'paid: { equals: true }',
        'reference: { equals: "65a1f0c2e4b0a1b2c3d4e5f6" }',
        'dueAt: { equals: "2024-01-15T00:00:00.000Z" }',
      ]) {
        const answer = await ask(where);
        expect(answer.data ?? null, where).toBeNull();
        const error = answer.errors?.[0];
        expect(error?.extensions?.code, where).toBe('BAD_USER_INPUT');
        expect(error?.extensions?.reason, where).toBe('unfilterable_field');
        expect(error?.extensions?.setting, where).toBe('UPSTREAM_UNFILTERABLE_FIELDS');
        expect(error?.message, where).toContain('UPSTREAM_UNFILTERABLE_FIELDS');
      }
      // Text the upstream's matches sees is still filtered.
      const text = await ask('label: { equals: "b" }');
      expect(text.errors).toBeUndefined();
      expect(text.data).toEqual({ payments: { nodes: [{ label: 'b' }] } });
      // The generic filter is refused the same way.
      const generic = await h.post(
        `{ objects(objectName: "${PAYMENT}", first: 10, filter: { criteria: [{ fieldName: "paid", operator: equals, value: "true" }] }) { totalCount } }`,
        {},
        { authorization: `Bearer ${token}` },
      );
      expect(generic.errors?.[0]?.extensions?.reason).toBe('unfilterable_field');
    } finally {
      await h.close();
    }
  }, 240_000);

  it('should find every field by its value on an upstream whose matches sees them, and set none', async () => {
    // A `{"$oid"}` or `{"$date"}` the upstream compares as JSON text is no more filterable by its value.
    const emulator = await seeded({ matchesStringsOnly: false }, PLAIN);
    const run = await checkOf(emulator);
    expect(verdictOf(run, 'unfilterable fields'), JSON.stringify(run.report?.findings)).toBe('as-assumed');
    expect(run.env.UPSTREAM_UNFILTERABLE_FIELDS).toBe('');
  }, 240_000);
});

describe('the check on a declared type it cannot verify whole', () => {
  it('should never exit 0 when a field of a declared type holds no value to filter by', async () => {
    const emulator = await seeded(
      { matchesStringsOnly: false },
      PLAIN.map((record) =>
        Object.fromEntries(Object.entries(record).filter(([key]) => key !== 'installments')),
      ),
    );
    const run = await checkOf(emulator);
    expect(verdictOf(run, 'field kinds: Payment')).toBe('cannot-tell');
    expect(run.report?.findings.find((f) => f.topic === 'field kinds: Payment')?.detail).toContain(
      'installments (Int): not verified',
    );
    expect(run.report?.findings.filter((f) => f.verdict === 'cannot-serve')).toEqual([]);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('not every declared type was verified');
  }, 240_000);
});
