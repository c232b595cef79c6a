/**
 * Turns the typed mutation inputs into what the upstream stores: each field at its record path. GraphQL has
 * already coerced the input to the declared types; what it cannot express is checked here, before any write.
 */
import { badUserInput } from '../errors/graphql-errors.ts';
import { isJsonObject } from '../upstream/client/answers/response-schemas.ts';
import type { UpstreamRecord } from '../upstream/client/types.ts';
import { copyJson } from '../upstream/dialect/exact-json.ts';
import { printTypeRef, type FieldSpec, type ObjectTypeSpec } from './spec/object-type-spec.ts';

type RecordField = Exclude<FieldSpec, { kind: 'id' }>;

/**
 * A coerced input value as the upstream stores it: the `DateTime` scalar parses to a `Date`, stored as the
 * UTC text `toISOString()` writes (what `DateTimeFilter` matches), in lists too.
 */
function storedValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return Array.isArray(value) ? value.map(storedValue) : value;
}

/** The fields of `spec` the input names (left-out fields are `undefined`), with their values. */
function givenFields(input: Record<string, unknown>, spec: ObjectTypeSpec): [RecordField, unknown][] {
  const given: [RecordField, unknown][] = [];
  for (const field of spec.fields) {
    if (field.kind === 'id' || !Object.hasOwn(input, field.name)) continue;
    const value = input[field.name];
    if (value !== undefined) given.push([field, storedValue(value)]);
  }
  if (given.length === 0) throw badUserInput('"input" must name at least one field.', 'input');
  return given;
}

/** Sets `value` at the dotted `path` of `target`, creating the objects on the way (own properties only). */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop() ?? path;
  let current = target;
  for (const key of keys) {
    const next = Object.hasOwn(current, key) ? current[key] : undefined;
    const child: Record<string, unknown> = isJsonObject(next) ? next : {};
    Object.defineProperty(current, key, {
      value: child,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    current = child;
  }
  Object.defineProperty(current, last, { value, enumerable: true, writable: true, configurable: true });
}

/** The record of a new object from a `…Input`. */
export function inputToRecord(input: Record<string, unknown>, spec: ObjectTypeSpec): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [field, value] of givenFields(input, spec)) setPath(record, field.path, value);
  return record;
}

/** Whether a patch changes a nested record path (`address.city`): then the current object is needed. */
export function patchNeedsCurrent(patch: Record<string, unknown>, spec: ObjectTypeSpec): boolean {
  return spec.fields.some((f) => f.kind !== 'id' && f.path.includes('.') && patch[f.name] !== undefined);
}

/**
 * Checks a `…Patch` before anything is read or written: it names at least one field, and gives `null` only
 * to nullable fields. Answers the given fields.
 */
export function checkPatch(patch: Record<string, unknown>, spec: ObjectTypeSpec): [RecordField, unknown][] {
  const given = givenFields(patch, spec);
  for (const [field, value] of given) {
    if (value === null && field.kind === 'value' && field.type.nonNull) {
      throw badUserInput(
        `"input.${field.name}" cannot be null: ${spec.typeName}.${field.name} is ${printTypeRef(field.type)}.`,
        'input',
      );
    }
  }
  return given;
}

/**
 * The top-level fields an update sends for a `…Patch`. The upstream replaces top-level fields whole, so a
 * nested path is written into a copy of the current value of its top-level field (`current`, read first):
 * the other keys of that object are kept. `null` clears a nullable field; a non-null field refuses it.
 */
export function patchToFields(
  patch: Record<string, unknown>,
  spec: ObjectTypeSpec,
  current: UpstreamRecord | null,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [field, value] of checkPatch(patch, spec)) {
    const [top = field.path] = field.path.split('.');
    if (top !== field.path && !Object.hasOwn(fields, top)) {
      const before = current !== null && Object.hasOwn(current, top) ? current[top] : undefined;
      // A deep copy: the loader's cached record must not change before the upstream confirms the write.
      // `copyJson`, not `structuredClone`, which throws on a number kept with its digits.
      setPath(fields, top, isJsonObject(before) ? copyJson(before) : {});
    }
    setPath(fields, field.path, value);
  }
  return fields;
}
