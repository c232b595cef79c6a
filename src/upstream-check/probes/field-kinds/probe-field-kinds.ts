/**
 * What the upstream's `matches` sees, per declared type: for each number, boolean, date, long and reference
 * field of each `@dataObject` type the gateway serves, the filter the gateway would send for a value a record
 * holds (`equals`, compiled and framed as the gateway does), expecting that record back. A MongoDB `$regex`
 * never matches a number, a boolean, a `{"$date"}` or a `{"$oid"}`: such a filter answers empty, which no
 * run-time check can tell from "no record matches". So the fields that came back without their record are
 * written to `UPSTREAM_UNFILTERABLE_FIELDS`, and the gateway refuses a filter on them by name.
 */
import { OBJECTS_DIR } from '../../../app/build-schema.ts';
import { isUpstreamError } from '../../../errors/upstream-error.ts';
import { FilterError } from '../../../errors/filter-error.ts';
import { compileCriteria, type FilterCondition } from '../../../filters/compile-criteria.ts';
import { readObjectFiles } from '../../../typed/spec/read-object-files.ts';
import { isFilterable, type FieldSpec, type ObjectTypeSpec } from '../../../typed/spec/object-type-spec.ts';
import { validateObjectTypes } from '../../../typed/spec/validate-object-types.ts';
import type { UpstreamRecord } from '../../../upstream/client/types.ts';
import { isExactNumber } from '../../../upstream/dialect/exact-json.ts';
import type { CheckContext } from '../../check-context.ts';
import { MAX_CANDIDATES } from '../probe-object-type.ts';
import { valueAt } from '../../../upstream/dialect/matches-case.ts';

/** Records read of each type to find a value of each field. */
const SAMPLE_SIZE = 100;

/** The report's topic of one type's row. */
export const fieldKindsTopic = (spec: ObjectTypeSpec): string => `field kinds: ${spec.typeName}`;

/** The topic of the row that carries `UPSTREAM_UNFILTERABLE_FIELDS`. */
export const UNFILTERABLE_TOPIC = 'unfilterable fields';

/** The declared types, as the gateway reads them (a file that does not validate: its types are skipped). */
export function declaredTypeSpecs(objectTypesDir: string | undefined): ObjectTypeSpec[] {
  const dir = objectTypesDir ?? OBJECTS_DIR;
  const { files } = readObjectFiles(dir);
  return validateObjectTypes(
    files,
    { dir, taken: { query: new Set(), mutation: new Set(), types: new Set() }, sharedTypeNames: [] },
    [],
  );
}

/** A field whose filter the upstream may not answer exactly: not text (`_id` and `String` always are). */
type ProbedField = Exclude<FieldSpec, { kind: 'id' }>;

/** The kind a probed field is named by in the report. */
function kindOf(field: ProbedField): string | undefined {
  if (field.kind === 'ref') return 'reference';
  if (field.type.kind !== 'scalar') return undefined;
  const name = field.type.name;
  return ['Int', 'Long', 'Float', 'Boolean', 'DateTime', 'ID'].includes(name) ? name : undefined;
}

/** MongoDB extended JSON's one-key wrapper (`{"$oid": …}`, `{"$date": …}`), its inner value. */
function extended(value: unknown, key: '$oid' | '$date'): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isExactNumber(value))
    return undefined;
  const entries = Object.entries(value);
  return entries.length === 1 && entries[0]?.[0] === key ? entries[0][1] : undefined;
}

/** The operand a caller would write to find `value` (`undefined`: no operand the field's filter takes), and how it is held. */
function operandOf(
  field: ProbedField,
  kind: string,
  value: unknown,
): { operand: string; held: string } | undefined {
  if (value === undefined || value === null) return undefined;
  if (field.kind === 'ref' || kind === 'ID') {
    const oid = extended(value, '$oid');
    if (typeof oid === 'string') return { operand: oid, held: '{"$oid": …}' };
    if (typeof value === 'string') return { operand: value, held: 'text' };
    if (typeof value === 'number') return { operand: String(value), held: 'a number' };
    return undefined;
  }
  if (kind === 'Boolean') {
    if (typeof value === 'boolean') return { operand: String(value), held: 'a boolean' };
    return value === 'true' || value === 'false' ? { operand: value, held: 'text' } : undefined;
  }
  if (kind === 'DateTime') {
    const inner = extended(value, '$date');
    const source = inner ?? value;
    const instant =
      typeof source === 'string' || typeof source === 'number' ? new Date(source) : new Date(Number.NaN);
    if (Number.isNaN(instant.getTime())) return undefined;
    return { operand: instant.toISOString(), held: inner === undefined ? 'text' : '{"$date": …}' };
  }
  if (isExactNumber(value)) return { operand: value.rawJSON, held: 'a number' };
  if (typeof value === 'number') return { operand: String(value), held: 'a number' };
  return typeof value === 'string' && /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(value)
    ? { operand: value, held: 'text' }
    : undefined;
}

/** What one field's probe found; `field` names it for the report (`amount (Float)`), `path` is its record path. */
type FieldVerdict = { field: string; path: string } & (
  { found: boolean; held: string } | { unknown: string }
);

/** Probes one field of `spec` with the first record of `records` that holds a value for it. */
async function probeField(
  context: CheckContext,
  spec: ObjectTypeSpec,
  field: ProbedField,
  kind: string,
  records: readonly UpstreamRecord[],
): Promise<FieldVerdict> {
  const name = `${field.name} (${kind})`;
  const at = { field: name, path: field.path };
  let aim: { record: UpstreamRecord; operand: string; held: string } | undefined;
  for (const record of records) {
    const got = operandOf(field, kind, valueAt(record, field.path));
    if (got !== undefined) {
      aim = { record, ...got };
      break;
    }
  }
  if (aim === undefined) return { ...at, unknown: `no record of the ${records.length} read holds a value` };
  const numeric = ['Int', 'Long', 'Float'].includes(kind);
  const condition: FilterCondition = {
    fieldName: field.path,
    operator: 'equals',
    value: aim.operand,
    values: null,
    caseInsensitive: false,
    ...(numeric
      ? { operandType: 'number' as const }
      : kind === 'DateTime'
        ? { operandType: 'dateTime' as const }
        : {}),
    at: { value: `where.${field.name}.equals`, values: `where.${field.name}.in`, caseInsensitive: '' },
  };
  const matchesMode = context.learnt.matches ?? context.config.matchesMode;
  let criteria;
  try {
    criteria = await compileCriteria([condition], {
      matchesMode,
      guard: context.guard,
      argumentName: 'where',
    });
  } catch (error) {
    if (error instanceof FilterError)
      return { ...at, unknown: `the gateway would not send it (${error.message})` };
    throw error;
  }
  try {
    const client = context.clientWith({ matchesMode, matchesCase: context.config.matchesCase });
    const page = await client.getAll(
      context.credentials,
      spec.objectName,
      criteria,
      SAMPLE_SIZE,
      context.learnt.firstPageStart,
    );
    const found = page.records.some((r) => r._id === aim.record._id);
    return { ...at, found, held: aim.held };
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    return { ...at, unknown: `the upstream refused the filter (${error.message})` };
  }
}

/** Whether two lists of `objectName.field` hold the same entries. */
const sameFields = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((entry) => b.includes(entry));

/**
 * Probes every declared type (at most {@link MAX_CANDIDATES}): one row per type saying what its `matches`
 * sees, then one row with `UPSTREAM_UNFILTERABLE_FIELDS`, the fields found unfilterable.
 */
export async function probeFieldKinds(context: CheckContext): Promise<void> {
  const specs = declaredTypeSpecs(context.config.objectTypesDir).slice(0, MAX_CANDIDATES);
  const unfilterable: string[] = [];
  let unsettled = 0;
  for (const spec of specs) {
    const topic = fieldKindsTopic(spec);
    let records: UpstreamRecord[];
    try {
      const page = await context.client.getAll(
        context.credentials,
        spec.objectName,
        [],
        Math.min(SAMPLE_SIZE, context.config.upstreamMaxPageSize),
        context.learnt.firstPageStart,
      );
      records = page.records;
    } catch (error) {
      if (!isUpstreamError(error)) throw error;
      unsettled++;
      context.report({
        topic,
        perType: true,
        verdict: 'cannot-tell',
        detail: `${spec.objectName} could not be read: ${error.message}`,
      });
      continue;
    }
    const verdicts: FieldVerdict[] = [];
    for (const field of spec.fields.filter(isFilterable)) {
      if (field.kind === 'id') continue;
      const kind = kindOf(field);
      if (kind === undefined) continue;
      verdicts.push(await probeField(context, spec, field, kind, records));
    }
    const missed = verdicts.filter((v) => 'found' in v && !v.found);
    const unknown = verdicts.filter((v) => 'unknown' in v);
    for (const v of missed) unfilterable.push(`${spec.objectName}.${v.path}`);
    const said = verdicts.map((v) =>
      'unknown' in v
        ? `${v.field}: not verified, ${v.unknown}`
        : `${v.field}, held as ${v.held}: ${v.found ? 'found' : 'NOT found'}`,
    );
    if (unknown.length > 0) unsettled++;
    context.report({
      topic,
      perType: true,
      verdict: unknown.length > 0 ? 'cannot-tell' : missed.length > 0 ? 'differs' : 'as-assumed',
      detail:
        verdicts.length === 0
          ? `${spec.objectName}: no number, boolean, date, long or reference field to probe`
          : `${spec.objectName}, filtered by a value a record holds: ${said.join('; ')}`,
    });
  }
  context.report({
    topic: UNFILTERABLE_TOPIC,
    verdict:
      unfilterable.length > 0
        ? sameFields(unfilterable, context.config.unfilterableFields)
          ? 'as-assumed'
          : 'differs'
        : unsettled > 0
          ? 'cannot-tell'
          : sameFields([], context.config.unfilterableFields)
            ? 'as-assumed'
            : 'differs',
    detail:
      unfilterable.length > 0
        ? `the upstream's matches does not see ${unfilterable.join(', ')} (filtered by a value a record holds, the record did not come back): the gateway refuses a filter on them by name, never answers it empty`
        : unsettled > 0
          ? `every field probed was found, but ${unsettled} of the ${specs.length} declared types could not be verified whole (see their rows)`
          : `every number, boolean, date, long and reference field of the ${specs.length} declared types was found by its value`,
    settings: { UPSTREAM_UNFILTERABLE_FIELDS: unfilterable.join(',') },
  });
}
