/**
 * The write dialects the emulator speaks besides the documented one, each as an upstream written from the
 * same document could: where the save answer carries the id, what a save naming an `_id` does, how update
 * takes its fields (`EMULATOR_SAVE_ID_AT`, `EMULATOR_SAVE_WITH_ID`, `EMULATOR_UPDATE_FIELDS`), and what its
 * entity class stores (fields it lacks dropped, numbers made whole).
 */
import type { UpstreamRecord } from '../../src/upstream/client/wire.ts';

/** Where a save answer carries the saved id. */
export type SaveIdAt = 'savedObjectId' | 'data._id' | 'data';

/** What a save naming an existing `_id` does: merge the fields sent, or replace the object with them. */
export type SaveWithId = 'merges' | 'replaces';

/** How update takes its fields: one JSON parameter `data`, or one parameter per field. */
export type UpdateFields = 'data' | 'params';

/** The write dialect, as the handlers read it. */
export interface WriteDialect {
  saveIdAt: SaveIdAt;
  saveWithId: SaveWithId;
  updateFields: UpdateFields;
  /** Fields the upstream's entity class lacks: dropped from every save and update, without a word. */
  droppedFields: ReadonlySet<string>;
  /** Whether numbers are stored as whole numbers (an entity with `int`/`long` fields): `2.7` becomes `2`. */
  truncatesNumbers: boolean;
}

/**
 * The fields a save or update writes, as the upstream's entity class takes them (Jackson ignoring unknown
 * properties, Java narrowing a number): the dropped fields left out, numbers cut toward zero. Answers the
 * fields as they are, untouched, when the dialect does neither.
 */
export function asEntityStores(
  fields: Record<string, unknown>,
  dialect: WriteDialect,
): Record<string, unknown> {
  if (dialect.droppedFields.size === 0 && !dialect.truncatesNumbers) return fields;
  const stored: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (dialect.droppedFields.has(name)) continue;
    Object.defineProperty(stored, name, {
      value: dialect.truncatesNumbers && typeof value === 'number' ? Math.trunc(value) : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return stored;
}

/** The save success answer: the id where the dialect puts it (`data._id`: the saved object, as stored). */
export function saveSuccess(at: SaveIdAt, message: string, record: UpstreamRecord): Record<string, unknown> {
  if (at === 'data._id') return { status: 'success', message, data: record };
  if (at === 'data') return { status: 'success', message, data: record._id };
  return { status: 'success', message, savedObjectId: record._id };
}

/** The parameters update reads itself; in the `params` dialect every other one is a field. */
const OWN_PARAMETERS = new Set([
  'objectName',
  'apiToken',
  'username',
  'applicationCode',
  'organizationCode',
  'callback',
]);

/**
 * The fields of an update in the `params` dialect, as a servlet iterating `request.getParameterMap()`
 * finds them: every parameter it does not read itself, as its (first) text value. A JSON `data` parameter
 * is no exception: it becomes a text field `data`.
 */
export function fieldsFromParams(query: URLSearchParams): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of new Set(query.keys())) {
    if (OWN_PARAMETERS.has(name)) continue;
    Object.defineProperty(fields, name, {
      value: query.get(name),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return fields;
}
