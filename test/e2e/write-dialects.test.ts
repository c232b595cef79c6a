/**
 * The front-end's write journey (save, save with `_id` and one field, update, read back) against the
 * emulator in each write dialect of an upstream: with the matching setting it is right; with the wrong one
 * every step that would have been silently wrong is a named `UPSTREAM_DIALECT_MISMATCH` (never a success
 * that lost a field or an id), and the breaker stays closed.
 */
import { describe, expect, it } from 'vitest';
import { appliedWriteMismatch } from '../support/dialect-mismatch.ts';
import { useHarness, type Harness } from '../support/gateway-harness.ts';
import { firstError } from '../support/graphql-errors.ts';
import { expectClosedBreakers } from '../support/expect-closed-breakers.ts';
import { readLoan, saveLoan, saveNewLoan, updateLoan } from '../support/generic-loan-writes.ts';

/** A breaker that opens after five sick answers: if a mismatch counted, the journeys would open it. */
const BREAKER = { UPSTREAM_BREAKER_MIN_CALLS: '5' };

/** Save three fields, save ONE with `_id`, update one, reading back after each: every field as written. */
async function journey(h: Harness): Promise<void> {
  const token = await h.login();
  const id = await saveNewLoan(h, token, { loanType: 'Journey', description: 'first', rate: 2 });
  /** The whole object after each later step: only the description is ever written again. */
  const written = (description: string) => ({ _id: id, loanType: 'Journey', description, rate: 2 });

  const partial = await saveLoan(h, token, { _id: id, description: 'second' });
  expect(partial.error).toBeUndefined();
  expect(partial.data!.saveObject.id).toBe(id);
  expect(await readLoan(h, token, id)).toEqual(written('second'));

  const updated = await updateLoan(h, token, id, { description: 'third' });
  expect(updated.error).toBeUndefined();
  expect(updated.data!.updateObject.updatedFields).toEqual({ description: 'third' });
  expect(updated.data!.updateObject.object?.data).toEqual(written('third'));

  // An update to the values the object already holds changes nothing, and says so without an error.
  const same = await updateLoan(h, token, id, { description: 'third' });
  expect(same.error).toBeUndefined();
  expect(same.data!.updateObject.updatedFields).toEqual({});
  expectClosedBreakers(h);
}

describe.each([
  ['the documented dialect', {}, {}],
  [
    'an upstream answering the saved object under data',
    { saveIdAt: 'data._id' },
    { UPSTREAM_SAVE_ID_AT: 'data._id' },
  ],
  ['an upstream answering the bare id as data', { saveIdAt: 'data' }, { UPSTREAM_SAVE_ID_AT: 'data' }],
  [
    'an upstream whose save with _id replaces',
    { saveWithId: 'replaces' },
    { UPSTREAM_SAVE_WITH_ID: 'replaces' },
  ],
  [
    'an upstream taking one parameter per field',
    { updateFields: 'params' },
    { UPSTREAM_UPDATE_FIELDS: 'params' },
  ],
  [
    'all three at once',
    { saveIdAt: 'data._id', saveWithId: 'replaces', updateFields: 'params' },
    { UPSTREAM_SAVE_ID_AT: 'data._id', UPSTREAM_SAVE_WITH_ID: 'replaces', UPSTREAM_UPDATE_FIELDS: 'params' },
  ],
] as const)('writes to %s, with the matching setting', (_name, emulator, env) => {
  const h = useHarness({ emulator, env: { ...BREAKER, ...env } });

  it('should save, merge a partial save with _id, update and read back every field as written', async () => {
    await journey(h);
  });
});

describe('a save answer without the id where UPSTREAM_SAVE_ID_AT says', () => {
  const h = useHarness({ emulator: { saveIdAt: 'data._id' }, env: BREAKER });

  it('should say the object was created, with its id, and that it must not be saved again', async () => {
    const token = await h.login();
    const result = await saveLoan(h, token, { loanType: 'Once', description: 'no duplicate' });
    const error = firstError(result.error);
    expect(error.extensions).toMatchObject(
      appliedWriteMismatch('save_id', 'UPSTREAM_SAVE_ID_AT', expect.stringMatching(/^[0-9a-f]{24}$/)),
    );
    expect(error.message).toContain('The object was created: do not save it again');
    expect(error.message).toContain('UPSTREAM_SAVE_ID_AT=data._id');
    // The object exists, once, under the id the error gave.
    expect(await readLoan(h, token, error.extensions.objectId as string)).toMatchObject({ loanType: 'Once' });
    expect(h.upstreamCalls().save).toBe(1);
    expectClosedBreakers(h);
  });
});

/** What the replacing-upstream tests save first; their save with `_id` then sends one field of it. */
const KEPT = { loanType: 'Keep', description: 'first', rate: 3 };

describe('a save with _id and one field on an upstream that replaces, with UPSTREAM_SAVE_WITH_ID=merges', () => {
  const h = useHarness({ emulator: { saveWithId: 'replaces' }, env: BREAKER });

  it('should write the dropped fields back and name the mismatch: no field is lost', async () => {
    const token = await h.login();
    const id = (await saveLoan(h, token, KEPT)).data!.saveObject.id;
    const result = await saveLoan(h, token, { _id: id, description: 'second' });
    const error = firstError(result.error);
    expect(error.extensions).toMatchObject(appliedWriteMismatch('save_with_id', 'UPSTREAM_SAVE_WITH_ID', id));
    expect(error.message).toContain('dropping or resetting 2 other field(s) ("loanType", "rate")');
    expect(error.message).toContain('UPSTREAM_SAVE_WITH_ID=replaces');
    expect(await readLoan(h, token, id)).toEqual({ _id: id, ...KEPT, description: 'second' });
    expectClosedBreakers(h);
  });
});

describe('a save with _id on an upstream that replaces and answers the id at data._id, on the defaults', () => {
  const h = useHarness({ emulator: { saveWithId: 'replaces', saveIdAt: 'data._id' }, env: BREAKER });

  it('should still write the dropped fields back and name both mismatches, not only where the id was', async () => {
    const token = await h.login();
    // The create's own mismatch (save_id) carries the id, as a front end reads it.
    const created = await saveLoan(h, token, KEPT);
    const id = firstError(created.error).extensions.objectId as string;
    const result = await saveLoan(h, token, { _id: id, description: 'second' });
    const error = firstError(result.error);
    expect(error.extensions).toMatchObject({ assumption: 'save_with_id', applied: true, objectId: id });
    expect(error.message).toContain('dropping or resetting 2 other field(s) ("loanType", "rate")');
    expect(error.message).toContain('elsewhere than UPSTREAM_SAVE_ID_AT says');
    expect(await readLoan(h, token, id)).toEqual({ _id: id, ...KEPT, description: 'second' });
    // Nothing dropped (every field sent): the save_id mismatch alone, the object written as sent.
    const whole = await saveLoan(h, token, { _id: id, ...KEPT, description: 'third' });
    expect(firstError(whole.error).extensions).toMatchObject({ assumption: 'save_id', objectId: id });
    expect(await readLoan(h, token, id)).toEqual({ _id: id, ...KEPT, description: 'third' });
    expectClosedBreakers(h);
  });
});

describe('an update on an upstream taking one parameter per field, with UPSTREAM_UPDATE_FIELDS=data', () => {
  const h = useHarness({ emulator: { updateFields: 'params' }, env: BREAKER });

  it('should be a named mismatch that says a field "data" may have been written, never a success', async () => {
    const token = await h.login();
    const id = (await saveLoan(h, token, { loanType: 'Upd', description: 'before' })).data!.saveObject.id;
    const first = firstError((await updateLoan(h, token, id, { description: 'after' })).error);
    expect(first.extensions).toMatchObject(
      appliedWriteMismatch('update_fields', 'UPSTREAM_UPDATE_FIELDS', id),
    );
    expect(first.message).toContain('a text field "data"');
    expect(first.message).toContain('UPSTREAM_UPDATE_FIELDS=params');
    // Again: the field "data" now holds that text, so the answer names nothing; the read back tells.
    for (let i = 0; i < 5; i++) {
      const again = firstError((await updateLoan(h, token, id, { description: 'after' })).error);
      expect(again.extensions).toMatchObject({
        code: 'UPSTREAM_DIALECT_MISMATCH',
        assumption: 'update_fields',
      });
      expect(again.message).toContain('names none of the 1 field(s) sent and the object does not hold');
    }
    // The field did not change: the upstream wrote a field "data" instead, as the message says.
    expect(await readLoan(h, token, id)).toMatchObject({
      description: 'before',
      data: '{"description":"after"}',
    });
    expectClosedBreakers(h);
  });
});

describe('an update on an upstream taking one JSON data parameter, with UPSTREAM_UPDATE_FIELDS=params', () => {
  const h = useHarness({
    emulator: { updateFields: 'data' },
    env: { ...BREAKER, UPSTREAM_UPDATE_FIELDS: 'params' },
  });

  it("should answer the upstream's refusal, never a success, and change nothing", async () => {
    const token = await h.login();
    const id = (await saveLoan(h, token, { loanType: 'Upd', description: 'before' })).data!.saveObject.id;
    const result = await updateLoan(h, token, id, { description: 'after' });
    expect(firstError(result.error).extensions).toMatchObject({
      code: 'UPSTREAM_ERROR',
      upstream: { message: 'missing data: the fields to change, as a JSON object' },
    });
    expect(await readLoan(h, token, id)).toMatchObject({ description: 'before' });
    expectClosedBreakers(h);
  });

  it('should refuse before sending what one parameter per field cannot carry', async () => {
    const token = await h.login();
    const id = (await saveLoan(h, token, { loanType: 'Params' })).data!.saveObject.id;
    h.emulator.resetStats();
    for (const data of [{ apiToken: 'x' }, { callback: 'x' }, { objectName: 'x' }, { note: null }]) {
      const result = await updateLoan(h, token, id, data);
      expect(firstError(result.error).extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(firstError(result.error).message).toContain('saveObject and "_id"');
    }
    expect(h.upstreamCalls().update).toBe(0);
  });
});
