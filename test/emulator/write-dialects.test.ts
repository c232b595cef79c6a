/**
 * The emulator's write dialects on the wire (`EMULATOR_SAVE_ID_AT`, `EMULATOR_SAVE_WITH_ID`,
 * `EMULATOR_UPDATE_FIELDS`): each as a servlet written from the same document could answer.
 */
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../emulator/index.ts';
import type { EmulatorOptions } from '../../emulator/index.ts';
import { filter, getAll, getJsonp, postJson } from '../support/emulator-wire.ts';
import { demoSaveBody } from '../support/demo-save-body.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const LOAN = 'com.example.LoanType';

function wire(options: EmulatorOptions) {
  const { emulator, demo } = useEmulator(options);
  const save = (data: Record<string, unknown>) =>
    postJson(emulator, '/studio/jsonp/save?callback=cb', demoSaveBody(demo.apiToken, LOAN, data), 'cb');
  const update = (id: string, query: Record<string, string>) =>
    getJsonp(emulator, `/studio/jsonp/update/${id}`, {
      ...demo,
      organizationCode: DEMO.organizationCode,
      objectName: LOAN,
      ...query,
    });
  const read = async (id: string) =>
    ((await getAll(emulator, demo, LOAN, { filterCommand: filter(['_id', id]) })).json.data as unknown[])[0];
  return { save, update, read };
}

const OBJECT_ID = expect.stringMatching(/^[0-9a-f]{24}$/) as unknown;

// The two places a save answer may carry the new id, each checked as the same whole answer.
describe.each([
  ['data._id', 'the saved object under data, and no savedObjectId', { _id: OBJECT_ID, loanType: 'A' }],
  ['data', 'the bare id as data', OBJECT_ID],
] as const)('EMULATOR_SAVE_ID_AT=%s', (saveIdAt, answered, data) => {
  const { save } = wire({ saveIdAt });

  it(`should answer ${answered}`, async () => {
    const { json } = await save({ loanType: 'A' });
    expect(json).toEqual({ status: 'success', message: 'object created', data });
  });
});

describe('EMULATOR_SAVE_WITH_ID=replaces', () => {
  const { save, read } = wire({ saveWithId: 'replaces' });

  it('should replace the object named by _id with the fields sent, as MongoTemplate.save does', async () => {
    const id = (await save({ loanType: 'A', description: 'd', rate: 1 })).json.savedObjectId as string;
    const again = await save({ _id: id, rate: 2 });
    expect(again.json).toEqual({ status: 'success', message: 'object updated', savedObjectId: id });
    expect(await read(id)).toEqual({ _id: id, rate: 2 });
  });
});

describe('EMULATOR_UPDATE_FIELDS=params', () => {
  const { save, update, read } = wire({ updateFields: 'params' });

  it('should take every parameter besides its own as a text field', async () => {
    const id = (await save({ loanType: 'A', rate: 1 })).json.savedObjectId as string;
    const answer = await update(id, { loanType: 'B', rate: '2' });
    expect(answer.json).toEqual({
      status: 'success',
      message: 'object updated',
      savedObjectId: id,
      updatedFields: { loanType: 'B', rate: '2' },
    });
    expect(await read(id)).toEqual({ _id: id, loanType: 'B', rate: '2' });
  });

  it('should make a text field "data" of a JSON data parameter, as measured on such a servlet', async () => {
    const id = (await save({ loanType: 'A' })).json.savedObjectId as string;
    const answer = await update(id, { data: '{"loanType":"B"}' });
    expect(answer.json.updatedFields).toEqual({ data: '{"loanType":"B"}' });
    expect(await read(id)).toEqual({ _id: id, loanType: 'A', data: '{"loanType":"B"}' });
  });
});

describe('reads lagging the writes (readLagMillis), on a clock the test turns', () => {
  let clock = Date.now();
  const { save, update, read } = wire({ readLagMillis: 500, now: () => clock });

  it('should show a new object only once the lag has passed, and an update only then', async () => {
    const { json } = await save({ loanType: 'Lag', rate: 1 });
    const id = json.savedObjectId as string;
    expect(await read(id)).toBeUndefined();
    clock += 500;
    expect(await read(id)).toEqual({ _id: id, loanType: 'Lag', rate: 1 });
    await update(id, { data: JSON.stringify({ rate: 2 }) });
    expect(await read(id)).toEqual({ _id: id, loanType: 'Lag', rate: 1 });
    clock += 500;
    expect(await read(id)).toEqual({ _id: id, loanType: 'Lag', rate: 2 });
  });
});

describe('an entity dropping a field and storing numbers whole (droppedFields, truncatesNumbers)', () => {
  const { save, read } = wire({ droppedFields: ['extra'], truncatesNumbers: true });

  it('should store the other fields, numbers cut toward zero', async () => {
    const { json } = await save({ loanType: 'Entity', rate: -2.7, extra: 'x' });
    const id = json.savedObjectId as string;
    expect(await read(id)).toEqual({ _id: id, loanType: 'Entity', rate: -2 });
  });
});
