/**
 * Random write dialects × random writes, each answer held to the emulator's own store (its data file): a real
 * gateway and a real emulator on loopback, the emulator's switches drawn at random (save with `_id` merging or
 * replacing, reads lagging, an entity dropping a field and storing numbers whole) and the gateway's
 * `UPSTREAM_SAVE_WITH_ID` drawn apart from them (the check may have learnt it on another type). Whatever the
 * draw, every answer is right or a named error, an error never hides a change of the store (`applied`), and a
 * save with `_id` never loses a field the caller did not send unless an error names it (`lostFields`).
 */
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/gateway-harness.ts';
import { sameStoredValue, type StoredValueOptions } from '../../src/upstream/dialect/writes/stored-value.ts';

const LOAN = 'com.example.LoanType';

const SAVE = `mutation($data: JSONObject!) { saveObject(objectName: "${LOAN}", data: $data) { id object { data } } }`;
const UPDATE = `mutation($id: ID!, $data: JSONObject!) {
  updateObject(id: $id, objectName: "${LOAN}", data: $data) { id updatedFields object { data } }
}`;
const LOGIN = 'mutation { login(username: "demo", password: "demo-password") { token } }';

type Fields = Record<string, unknown>;

interface GraphqlError {
  message: string;
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
}

/** One write of a run: a new object, a save naming an object made earlier, or an update of one. */
type Write =
  | { kind: 'create'; data: Fields }
  | { kind: 'saveById'; target: number; data: Fields }
  | { kind: 'update'; target: number; data: Fields };

const value = fc.oneof(
  fc.constantFrom('open', 'closed', 'Grüße', 'a?b', 'Ελλάδα'),
  fc.integer({ min: -5, max: 100 }),
  fc.constantFrom(2.5, 2.7, 0.1),
  fc.boolean(),
);
const fields = fc.dictionary(fc.constantFrom('loanType', 'rate', 'note', 'extra', 'term'), value, {
  minKeys: 1,
  maxKeys: 4,
});
const create = fields.map((data): Write => ({ kind: 'create', data }));
const write: fc.Arbitrary<Write> = fc.oneof(
  create,
  fc.record({ kind: fc.constant('saveById' as const), target: fc.nat(3), data: fields }),
  fc.record({ kind: fc.constant('saveById' as const), target: fc.nat(3), data: fields }),
  fc.record({ kind: fc.constant('update' as const), target: fc.nat(3), data: fields }),
);
/** A run: an object made first, then writes of any kind. */
const writes = fc
  .tuple(create, fc.array(write, { minLength: 1, maxLength: 5 }))
  .map(([first, rest]) => [first, ...rest]);
const dialect = fc.record({
  saveWithId: fc.constantFrom('merges' as const, 'replaces' as const),
  readLagMillis: fc.constantFrom(0, 0, 120),
  droppedFields: fc.constantFrom([], ['extra']),
  truncatesNumbers: fc.boolean(),
  setting: fc.constantFrom('merges', 'replaces'),
  readBackMillis: fc.constantFrom('3000', '3000', '0'),
  updateFields: fc.constantFrom('data' as const, 'data' as const, 'params' as const),
  charset: fc.constantFrom('utf-8' as const, 'utf-8' as const, 'iso-8859-1' as const),
  escapesNonAscii: fc.boolean(),
});

/** The store's records by id, as the emulator's data file holds them. */
async function storeOf(dataFile: string): Promise<Map<string, Fields>> {
  const file = JSON.parse(await readFile(dataFile, 'utf8')) as { objects: { record: Fields }[] };
  return new Map(file.objects.map((object) => [String(object.record._id), object.record]));
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Checks one write's answer against the store before and after it. */
function checkAnswer(
  step: Write,
  answer: { data?: Record<string, unknown> | null; errors?: GraphqlError[] },
  id: string | undefined,
  before: Fields | undefined,
  after: Fields | undefined,
  compare: StoredValueOptions,
): void {
  const errors = answer.errors ?? [];
  const context = JSON.stringify({ step, errors, before, after });
  // Nothing the caller sent here is its mistake, but text an ISO-8859-1 upstream heard writing its own bytes
  // cannot give back (refused before sending): no other write is refused as BAD_USER_INPUT.
  for (const error of errors) {
    if (error.extensions?.code === 'BAD_USER_INPUT')
      expect(error.message, context).toContain('cannot give back');
  }
  const applied = errors.some((error) => error.extensions?.applied === true);
  if (!same(before, after)) expect(applied || errors.length === 0, context).toBe(true);
  if (after === undefined || id === undefined) return;
  const root = step.kind === 'update' ? 'updateObject' : 'saveObject';
  const payload = answer.data?.[root] as { object?: { data?: Fields } | null } | null | undefined;
  const shown = payload?.object?.data;
  // An object answered shows the fields written as the store holds them: never an old version. (Fields not
  // written show what the upstream's reads give, `?` from an ISO-8859-1 upstream included: the read path's.)
  if (shown !== undefined) {
    for (const field of Object.keys(step.data)) {
      expect(sameStoredValue(shown[field], after[field], compare), context).toBe(true);
    }
  }
  if (errors.length > 0) return;
  // A success: every field sent is stored as sent…
  for (const [field, sent] of Object.entries(step.data))
    expect(sameStoredValue(sent, after[field], compare), context).toBe(true);
  // …and a save with _id kept every field it did not send.
  if (step.kind === 'saveById' && before !== undefined) {
    for (const [field, kept] of Object.entries(before)) {
      if (!Object.hasOwn(step.data, field)) expect(sameStoredValue(kept, after[field]), context).toBe(true);
    }
  }
}

/** A save with _id that lost fields not sent must name them, or have restored them. */
function checkLoss(
  step: Write,
  errors: GraphqlError[],
  before: Fields | undefined,
  after: Fields | undefined,
): void {
  if (step.kind !== 'saveById' || before === undefined || after === undefined) return;
  const named = new Set(
    errors.flatMap((error) => (error.extensions?.lostFields as string[] | undefined) ?? []),
  );
  const refusedBeforeWriting = errors.some((error) => error.extensions?.applied !== true);
  for (const [field, kept] of Object.entries(before)) {
    if (Object.hasOwn(step.data, field) || named.has(field) || refusedBeforeWriting) continue;
    expect(sameStoredValue(kept, after[field]), JSON.stringify({ step, errors, before, after, field })).toBe(
      true,
    );
  }
}

describe('random write dialects × random writes, held to the store', () => {
  it('should answer every write right or with a named error, never hiding a change or a loss', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(dialect, writes, async (switches, steps) => {
        run += 1;
        const dataFile = join(tmpdir(), `write-random-${process.pid}-${Date.now()}-${run}.json`);
        const h: Harness = await startHarness({
          emulator: {
            dataFile,
            saveWithId: switches.saveWithId,
            readLagMillis: switches.readLagMillis,
            droppedFields: switches.droppedFields,
            truncatesNumbers: switches.truncatesNumbers,
            updateFields: switches.updateFields,
            charset: switches.charset,
            escapesNonAscii: switches.escapesNonAscii,
          },
          env: {
            UPSTREAM_SAVE_WITH_ID: switches.setting,
            UPSTREAM_WRITE_READ_BACK_MS: switches.readBackMillis,
            UPSTREAM_UPDATE_FIELDS: switches.updateFields,
          },
          listen: false,
        });
        try {
          const login = await h.post(LOGIN);
          const token = (login.data as { login: { token: string } }).login.token;
          const headers = { authorization: `Bearer ${token}` };
          const ids: string[] = [];
          for (const step of steps) {
            const target = step.kind === 'create' ? undefined : ids[step.target % Math.max(ids.length, 1)];
            if (step.kind !== 'create' && target === undefined) continue;
            const storeBefore = ids.length === 0 ? new Map<string, Fields>() : await storeOf(dataFile);
            const answer =
              step.kind === 'update'
                ? await h.post(UPDATE, { id: target, data: step.data }, headers)
                : await h.post(
                    SAVE,
                    { data: step.kind === 'create' ? step.data : { ...step.data, _id: target } },
                    headers,
                  );
            const errors = (answer.errors ?? []) as GraphqlError[];
            const payload = answer.data as Record<string, { id?: string } | null> | null | undefined;
            const created =
              step.kind === 'create'
                ? (payload?.saveObject?.id ??
                  (errors.find((error) => error.extensions?.objectId)?.extensions?.objectId as
                    string | undefined))
                : undefined;
            if (created !== undefined) ids.push(created);
            const id = created ?? target;
            const storeAfter = await storeOf(dataFile);
            const before = id === undefined ? undefined : storeBefore.get(id);
            const after = id === undefined ? undefined : storeAfter.get(id);
            // One query parameter per field: an update's numbers and booleans are stored as their text.
            const textForScalars = step.kind === 'update' && switches.updateFields === 'params';
            checkAnswer(step, answer, id, before, after, { textForScalars });
            checkLoss(step, errors, before, after);
            // No write changes another object.
            for (const [other, record] of storeBefore)
              if (other !== id) expect(storeAfter.get(other)).toEqual(record);
          }
        } finally {
          await h.close();
          await rm(dataFile, { force: true });
        }
      }),
      { numRuns: 16 },
    );
  });
});
