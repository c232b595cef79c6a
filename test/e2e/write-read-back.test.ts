/**
 * Every write held to what was sent, end to end (real gateway, real emulator on loopback), against the write
 * dialects of an upstream written apart from us: reads from a replica that lags the writes, an entity class
 * that drops a field it lacks and stores numbers whole, a save with `_id` that replaces. Each answer is right,
 * or a named error saying the write was applied when it was; the emulator's own store (its data file) is
 * compared before and after, so no error hides a change and no success hides a loss.
 */
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../emulator/emulator-options.ts';
import { useHarness, type Harness } from '../support/gateway-harness.ts';
import { firstError } from '../support/graphql-errors.ts';
import { expectClosedBreakers } from '../support/expect-closed-breakers.ts';
import { readLoan, saveLoan, saveNewLoan, updateLoan } from '../support/generic-loan-writes.ts';
import {
  SaveLoanTypeDocument,
  UpdateLoanTypeDocument,
  withoutTypename,
} from '../support/typed-operations.ts';

const files: string[] = [];
afterAll(() => Promise.all(files.map((file) => rm(file, { force: true }))));

/** A harness whose emulator keeps its store in a data file of its own, with `emulator` and `env`. */
function harnessWithStore(
  name: string,
  emulator: EmulatorOptions,
  env: Record<string, string>,
): { h: Harness; stored: (id: string) => Promise<Record<string, unknown> | undefined> } {
  const dataFile = join(tmpdir(), `write-read-back-${name}-${process.pid}-${Date.now()}.json`);
  files.push(dataFile);
  const h = useHarness({
    emulator: { dataFile, ...emulator },
    // A breaker that opens after five sick answers: a mismatch counted as ill health would open it.
    env: { UPSTREAM_BREAKER_MIN_CALLS: '5', ...env },
    listen: false,
  });
  const stored = async (id: string) => {
    const file = JSON.parse(await readFile(dataFile, 'utf8')) as {
      objects: { record: Record<string, unknown> }[];
    };
    return file.objects.find((object) => object.record._id === id)?.record;
  };
  return { h, stored };
}

/**
 * The first error of a write's `result`, held to be what every mismatch here must be: named, and saying the
 * write was applied to object `objectId`; `more`: what else its extensions hold.
 */
function expectAppliedMismatch(
  result: { error?: unknown },
  objectId: unknown,
  more: Record<string, unknown> = {},
): { message: string; extensions: Record<string, unknown> } {
  const error = firstError(result.error);
  expect(error.extensions).toMatchObject({
    code: 'UPSTREAM_DIALECT_MISMATCH',
    applied: true,
    objectId,
    ...more,
  });
  return error;
}

describe('reads from a replica lagging the writes by 300 ms, within UPSTREAM_WRITE_READ_BACK_MS', () => {
  const { h, stored } = harnessWithStore(
    'lag',
    { readLagMillis: 300 },
    { UPSTREAM_WRITE_READ_BACK_MS: '20000' },
  );

  it('should answer every write with the object as written, never null or the old value', async () => {
    const token = await h.login();
    const id = await saveNewLoan(h, token, { loanType: 'Lag', description: 'first', rate: 2.5 });
    /** The whole object after each later step: only the description is ever written again. */
    const written = (description: string) => ({ _id: id, loanType: 'Lag', description, rate: 2.5 });

    const updated = await updateLoan(h, token, id, { description: 'second' });
    expect(updated.error).toBeUndefined();
    expect(updated.data!.updateObject.object?.data).toMatchObject({ description: 'second', rate: 2.5 });

    const partial = await saveLoan(h, token, { _id: id, description: 'third' });
    expect(partial.error).toBeUndefined();
    expect(partial.data!.saveObject.object?.data).toEqual(written('third'));
    expect(await stored(id)).toEqual(written('third'));
    expectClosedBreakers(h);
  });
});

describe('reads from a replica lagging the writes longer than UPSTREAM_WRITE_READ_BACK_MS', () => {
  const { h, stored } = harnessWithStore(
    'stale',
    { readLagMillis: 5_000 },
    { UPSTREAM_WRITE_READ_BACK_MS: '50' },
  );

  it('should answer a save with its id and a named mismatch where the object would be, and an update never beside the old value', async () => {
    const token = await h.login();
    const created = await saveLoan(h, token, { loanType: 'Stale', description: 'before' });
    const id = created.data!.saveObject.id;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(created.data!.saveObject.object).toBeNull();
    const error = expectAppliedMismatch(created, id, {
      assumption: 'read_after_write',
      setting: 'UPSTREAM_WRITE_READ_BACK_MS',
    });
    expect(error.message).toContain("the upstream's reads do not show the object yet");
    expect(await stored(id)).toEqual({ _id: id, loanType: 'Stale', description: 'before' });

    // Once the replica shows the object, an update's read-back shows its old version for a while.
    await expect
      .poll(() => readLoan(h, token, id), { timeout: 30_000, interval: 200 })
      .toMatchObject({ description: 'before' });
    const updated = await updateLoan(h, token, id, { description: 'after' });
    expect(updated.data!.updateObject.updatedFields).toEqual({ description: 'after' });
    expect(updated.data!.updateObject.object).toBeNull();
    const stale = expectAppliedMismatch(updated, id, { assumption: 'read_after_write' });
    expect(stale.extensions.fields).toEqual([
      { field: 'description', sent: '"after"', readBack: '"before"' },
    ]);
    expect(await stored(id)).toMatchObject({ description: 'after' });
    expectClosedBreakers(h);
  });
});

describe('an entity class that drops a field it lacks and stores numbers whole', () => {
  const { h, stored } = harnessWithStore('entity', { droppedFields: ['extra'], truncatesNumbers: true }, {});

  it('should name each field the save stored otherwise, with both values, and say it was applied', async () => {
    const token = await h.login();
    const saves = h.upstreamCalls().save ?? 0;
    const result = await saveLoan(h, token, { loanType: 'Entity', rate: 2.7, term: 12, extra: 'kept?' });
    const error = expectAppliedMismatch(result, expect.stringMatching(/^[0-9a-f]{24}$/), {
      blame: 'gateway',
      assumption: 'stored_as_sent',
      fields: [
        { field: 'rate', sent: '2.7', readBack: '2' },
        { field: 'extra', sent: '"kept?"', readBack: null },
      ],
    });
    expect(error.message).toContain('"rate" sent 2.7, read back 2');
    // Written once, as the upstream stored it: the error hides nothing and nothing was sent again.
    expect(h.upstreamCalls().save).toBe(saves + 1);
    expect(await stored(error.extensions.objectId as string)).toEqual({
      _id: error.extensions.objectId,
      loanType: 'Entity',
      rate: 2,
      term: 12,
    });
    expectClosedBreakers(h);
  });

  it('should take a whole number written as 2.0 for the 2 it reads back', async () => {
    const token = await h.login();
    const result = await saveLoan(h, token, { loanType: 'Whole', rate: 2 });
    expect(result.error).toBeUndefined();
    expect(result.data!.saveObject.object?.data).toMatchObject({ rate: 2 });
  });

  it('should name an update that the entity cut', async () => {
    const token = await h.login();
    const id = (await saveLoan(h, token, { loanType: 'Cut', rate: 3 })).data!.saveObject.id;
    const result = await updateLoan(h, token, id, { rate: 3.5 });
    expectAppliedMismatch(result, id, { fields: [{ field: 'rate', sent: '3.5', readBack: '3' }] });
    expect(await stored(id)).toMatchObject({ rate: 3 });
  });
});

describe('a save with _id and one field on an upstream that replaces and reads from a lagging replica, on UPSTREAM_SAVE_WITH_ID=merges', () => {
  const { h, stored } = harnessWithStore(
    'wipe',
    { saveWithId: 'replaces', readLagMillis: 300 },
    { UPSTREAM_WRITE_READ_BACK_MS: '20000' },
  );

  it('should never lose a field: verified once the reads show the save, written back, named', async () => {
    const token = await h.login();
    const fields = {
      loanType: 'Wipe',
      description: 'first',
      rate: 3,
      term: 24,
      note: 'keep me',
      active: true,
    };
    const id = (await saveLoan(h, token, fields)).data!.saveObject.id;
    const result = await saveLoan(h, token, { _id: id, status: 'open' });
    const error = expectAppliedMismatch(result, id, { assumption: 'save_with_id' });
    expect(error.extensions.lostFields).toBeUndefined();
    expect(await stored(id)).toEqual({ _id: id, ...fields, status: 'open' });

    // The type is now known to replace: the next save with _id reads, merges and writes it whole, and is right.
    const next = await saveLoan(h, token, { _id: id, status: 'closed' });
    expect(next.error).toBeUndefined();
    expect(next.data!.saveObject.object?.data).toEqual({ _id: id, ...fields, status: 'closed' });
    expect(await stored(id)).toEqual({ _id: id, ...fields, status: 'closed' });
    expectClosedBreakers(h);
  });
});

describe('a save with _id on an upstream that replaces, the object holding a value the gateway cannot send back', () => {
  const { h, stored } = harnessWithStore(
    'extended',
    { saveWithId: 'replaces' },
    { UPSTREAM_SAVE_WITH_ID: 'replaces' },
  );

  it('should stop before writing anything, and say so', async () => {
    const token = await h.login();
    const fields = { loanType: 'Dated', when: { $date: '2024-05-01T10:00:00Z' } };
    const id = (await saveLoan(h, token, fields)).data!.saveObject.id;
    const before = await stored(id);
    const saves = h.upstreamCalls().save ?? 0;
    const result = await saveLoan(h, token, { _id: id, status: 'open' });
    const error = firstError(result.error);
    expect(error.extensions).toMatchObject({ code: 'UPSTREAM_DIALECT_MISMATCH', assumption: 'save_with_id' });
    expect(error.extensions.applied).toBeUndefined();
    expect(error.message).toContain('"when"');
    expect(h.upstreamCalls().save).toBe(saves);
    expect(await stored(id)).toEqual(before);
  });
});

describe('a save with _id on an upstream that replaces, on UPSTREAM_SAVE_WITH_ID=merges, the object holding a value the gateway cannot send back', () => {
  const { h, stored } = harnessWithStore('extended-merges', { saveWithId: 'replaces' }, {});

  it('should write back what it can send exactly, and name the field lost', async () => {
    const token = await h.login();
    const fields = { loanType: 'Dated', rate: 4, when: { $date: '2024-05-01T10:00:00Z' } };
    const id = (await saveLoan(h, token, fields)).data!.saveObject.id;
    const result = await saveLoan(h, token, { _id: id, status: 'open' });
    expectAppliedMismatch(result, id, { assumption: 'save_with_id', lostFields: ['when'] });
    expect(await stored(id)).toEqual({ _id: id, loanType: 'Dated', rate: 4, status: 'open' });
  });
});

describe('an upstream answering ISO-8859-1 with every character beyond ASCII escaped, whose save with _id replaces', () => {
  const { h, stored } = harnessWithStore(
    'escaped',
    { charset: 'iso-8859-1', escapesNonAscii: true, saveWithId: 'replaces' },
    { UPSTREAM_SAVE_WITH_ID: 'replaces' },
  );

  it('should write Greek and emoji it gives back, and keep a field the caller did not send', async () => {
    const token = await h.login();
    const created = await saveLoan(h, token, { loanType: 'Greek', note: 'Ελληνικά 😀', status: 'new' });
    expect(created.error).toBeUndefined();
    const id = created.data!.saveObject.id;
    expect(created.data!.saveObject.object?.data).toMatchObject({ note: 'Ελληνικά 😀' });

    // The note is read from the store and sent back whole: never refused for a field the caller did not send.
    const status = await saveLoan(h, token, { _id: id, status: 'open' });
    expect(status.error).toBeUndefined();
    expect(await stored(id)).toEqual({ _id: id, loanType: 'Greek', note: 'Ελληνικά 😀', status: 'open' });

    const updated = await updateLoan(h, token, id, { note: 'Καλημέρα' });
    expect(updated.error).toBeUndefined();
    expect(await stored(id)).toMatchObject({ note: 'Καλημέρα', status: 'open' });
  });
});

describe('an upstream answering ISO-8859-1 as its own bytes, whose save with _id replaces', () => {
  const { h, stored } = harnessWithStore(
    'latin1',
    { charset: 'iso-8859-1', saveWithId: 'replaces' },
    { UPSTREAM_SAVE_WITH_ID: 'replaces' },
  );

  it('should never send back a text it read as ?, and write nothing: the note stays whole', async () => {
    const token = await h.login();
    // Written on a fresh gateway, before it heard the charset: stored right, read back as ?, named.
    const created = await saveLoan(h, token, { loanType: 'Latin', note: 'Ελληνικά' });
    const id = firstError(created.error).extensions.objectId as string;
    const before = await stored(id);
    expect(before).toMatchObject({ note: 'Ελληνικά' });
    const saves = h.upstreamCalls().save ?? 0;
    const result = await saveLoan(h, token, { _id: id, status: 'open' });
    const error = firstError(result.error);
    expect(error.extensions).toMatchObject({ code: 'UPSTREAM_DIALECT_MISMATCH', assumption: 'save_with_id' });
    expect(error.extensions.code).not.toBe('BAD_USER_INPUT');
    expect(error.message).toContain('"note"');
    expect(h.upstreamCalls().save).toBe(saves);
    expect(await stored(id)).toEqual(before);
  });
});

describe('a save with _id on an upstream that replaces and stores numbers whole, on UPSTREAM_SAVE_WITH_ID=merges', () => {
  const { h, stored } = harnessWithStore(
    'replace-cut',
    { saveWithId: 'replaces', truncatesNumbers: true },
    {},
  );

  it('should restore the fields not sent and name the one sent that was cut, in one error', async () => {
    const token = await h.login();
    const id = (await saveLoan(h, token, { loanType: 'Cut', rate: 3 })).data!.saveObject.id;
    const result = await saveLoan(h, token, { _id: id, amount: 2.5 });
    const error = expectAppliedMismatch(result, id, {
      assumption: 'save_with_id',
      fields: [{ field: 'amount', sent: '2.5', readBack: '2' }],
    });
    expect(error.extensions.lostFields).toBeUndefined();
    expect(await stored(id)).toEqual({ _id: id, loanType: 'Cut', rate: 3, amount: 2 });
  });
});

describe('the typed API on a replica lagging the writes, and an entity storing numbers whole', () => {
  const { h, stored } = harnessWithStore(
    'typed',
    { readLagMillis: 200, truncatesNumbers: true },
    { UPSTREAM_WRITE_READ_BACK_MS: '20000' },
  );

  it('should answer a typed save as written, and name a typed update the entity cut', async () => {
    const token = await h.login();
    const saved = await h.client(token).mutate({
      mutation: SaveLoanTypeDocument,
      variables: { input: { loanType: 'Typed', description: 'lagging', rate: 3 } },
    });
    expect(saved.error).toBeUndefined();
    const { id, object } = saved.data!.saveLoanType;
    expect(withoutTypename(object)).toEqual({ id, loanType: 'Typed', description: 'lagging', rate: 3 });

    const updated = await h.client(token).mutate({
      mutation: UpdateLoanTypeDocument,
      variables: { id, input: { rate: 3.75 } },
    });
    expectAppliedMismatch(updated, id);
    expect(await stored(id)).toMatchObject({ rate: 3 });
  });
});

describe('a save with _id right after an update, on a replacing upstream whose reads lag past UPSTREAM_WRITE_READ_BACK_MS', () => {
  const { h, stored } = harnessWithStore(
    'undo',
    { saveWithId: 'replaces', readLagMillis: 2_000 },
    { UPSTREAM_SAVE_WITH_ID: 'replaces', UPSTREAM_WRITE_READ_BACK_MS: '50' },
  );

  it('should never save the old version whole over the update: refused until the reads show it', async () => {
    const token = await h.login();
    const id = (await saveLoan(h, token, { loanType: 'Undo', rate: 1 })).data!.saveObject.id;
    await expect
      .poll(() => readLoan(h, token, id), { timeout: 30_000, interval: 100 })
      .toMatchObject({ rate: 1 });
    const updated = await updateLoan(h, token, id, { rate: 2 });
    expect(updated.data!.updateObject.updatedFields).toEqual({ rate: 2 });

    const saves = h.upstreamCalls().save ?? 0;
    const early = await saveLoan(h, token, { _id: id, status: 'open' });
    expect(firstError(early.error).extensions).toMatchObject({
      code: 'UPSTREAM_DIALECT_MISMATCH',
      assumption: 'read_after_write',
    });
    expect(firstError(early.error).extensions.applied, firstError(early.error).message).toBeUndefined();
    expect(h.upstreamCalls().save).toBe(saves);
    expect(await stored(id)).toEqual({ _id: id, loanType: 'Undo', rate: 2 });

    await expect
      .poll(() => readLoan(h, token, id), { timeout: 30_000, interval: 100 })
      .toMatchObject({ rate: 2 });
    const later = await saveLoan(h, token, { _id: id, status: 'open' });
    expect(later.data!.saveObject.id).toBe(id);
    expect(await stored(id)).toEqual({ _id: id, loanType: 'Undo', rate: 2, status: 'open' });
  });
});

describe('a save with _id right after an update the upstream answered otherwise, behind a lagging replica', () => {
  const { h, stored } = harnessWithStore(
    'undo-cut',
    { truncatesNumbers: true, readLagMillis: 120 },
    { UPSTREAM_WRITE_READ_BACK_MS: '3000' },
  );

  it('should never write the value from before the update back over it', async () => {
    const token = await h.login();
    const id = firstError((await saveLoan(h, token, { loanType: 2.5 })).error).extensions.objectId as string;
    const cut = await updateLoan(h, token, id, { loanType: 0.1 });
    expectAppliedMismatch(cut, id);
    await saveLoan(h, token, { _id: id, term: 0 });
    expect(await stored(id)).toEqual({ _id: id, loanType: 0, term: 0 });
  });
});
