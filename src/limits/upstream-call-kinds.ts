/**
 * Which fields of the served schema make upstream calls, and how: read once from the built schema, so the
 * typed object types generated from `schema/objects/*.graphql` are covered without naming any of them.
 *
 * An upstream object type is the generic `DataObject` or a type declared with `@dataObject`; from there:
 * - `page`: a field answering a connection of upstream objects (`objects`, every typed plural field) reads
 *   one or two upstream pages, and the objects of the page multiply what is selected below it;
 * - `byId`: a field answering one upstream object (`object`, `ref`, typed single and `@ref` fields) goes
 *   through the batching id loader: one call per batch of objects (a write payload's `object` is the record
 *   its read-back read: no call of its own);
 * - `perObject`: a field answering `ObjectMetadata` is one call per object (the upstream has no batch call);
 * - `verifiedWrite`: a root mutation field answering a payload with an upstream `object` (the saves and
 *   updates) is the write and its read-back (`src/objects/read-back-write.ts`), and a save naming an `_id`
 *   reads the object before it too;
 * - `write`: another root mutation field (`login`) is one call.
 * Every other field (scalars, `me`, `edges`, `nodes`, an edge's `node`, `pageInfo`) costs nothing itself,
 * nor do the two ways between the APIs (a typed object's `dataObject`, `DataObject.typed`): the same record.
 */
import type { GraphQLField, GraphQLNamedType, GraphQLObjectType, GraphQLSchema } from 'graphql';

/** How one field calls the upstream (see the file's comment). */
export type UpstreamCallKind = 'page' | 'byId' | 'perObject' | 'write' | 'verifiedWrite';

/** The fields that call the upstream, by schema coordinate (`Order.customer`). */
export type UpstreamCallKinds = ReadonlyMap<string, UpstreamCallKind>;

/** The generic object type of `schema/data-objects.graphql`. */
const GENERIC_OBJECT_TYPE = 'DataObject';
/** What `metadata` answers (`schema/metadata.graphql`). */
const METADATA_TYPE = 'ObjectMetadata';
/** The directive of the typed object types (`src/typed/spec/directives.ts`). */
const DATA_OBJECT_DIRECTIVE = 'dataObject';

/**
 * Realm-safe type checks: under vitest the schema's graphql-js is the CommonJS copy and this file's the ESM
 * one, whose `isObjectType` (an `instanceof`) throws on the other's types. Both copies tag their classes.
 */
function isObjectType(type: GraphQLNamedType | undefined | null): type is GraphQLObjectType {
  return Object.prototype.toString.call(type) === '[object GraphQLObjectType]';
}

/** The named type a field answers, through lists and non-nulls (`[Order]!` → `Order`). */
function namedTypeOf(
  schema: GraphQLSchema,
  field: GraphQLField<unknown, unknown>,
): GraphQLNamedType | undefined {
  return schema.getType(String(field.type).replace(/[[\]!]/g, ''));
}

/** Whether a field answers a list (`[Order]!`), as opposed to one value (`Order`, `Order!`). */
function answersList(field: GraphQLField<unknown, unknown>): boolean {
  return String(field.type).startsWith('[');
}

function isUpstreamObject(type: GraphQLNamedType | undefined): boolean {
  if (type?.name === GENERIC_OBJECT_TYPE) return true;
  return (
    isObjectType(type) && (type.astNode?.directives ?? []).some((d) => d.name.value === DATA_OBJECT_DIRECTIVE)
  );
}

/** A typed object's `dataObject`: the record it was read from, as a `DataObject` (no typed field holds one). */
function isSameRecord(type: GraphQLObjectType, answers: GraphQLNamedType | undefined): boolean {
  return answers?.name === GENERIC_OBJECT_TYPE && type.name !== GENERIC_OBJECT_TYPE && isUpstreamObject(type);
}

/** A Relay connection of upstream objects: `edges`, `pageInfo`, and `nodes` listing upstream objects. */
function isObjectConnection(
  schema: GraphQLSchema,
  type: GraphQLNamedType | undefined,
): type is GraphQLObjectType {
  if (!isObjectType(type)) return false;
  const { edges, nodes, pageInfo } = type.getFields();
  return (
    edges !== undefined &&
    pageInfo !== undefined &&
    nodes !== undefined &&
    isUpstreamObject(namedTypeOf(schema, nodes))
  );
}

/** A write payload: its `object` is the record the write's read-back verified. */
function answersVerifiedWrite(schema: GraphQLSchema, payload: GraphQLNamedType | undefined): boolean {
  if (!isObjectType(payload)) return false;
  const object = payload.getFields().object;
  return object !== undefined && isUpstreamObject(namedTypeOf(schema, object));
}

/** Classifies every field of `schema` that calls the upstream. */
export function upstreamCallKinds(schema: GraphQLSchema): UpstreamCallKinds {
  const types = Object.values(schema.getTypeMap()).filter(
    (type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'),
  );
  const connections = types.filter((type) => isObjectConnection(schema, type));
  // An edge's `node` is an object of the page already read, not a loader call.
  const edgeTypes = new Set(
    connections.flatMap((connection) => {
      const edges = connection.getFields().edges;
      return edges === undefined ? [] : [namedTypeOf(schema, edges)?.name];
    }),
  );
  const mutation = schema.getMutationType();
  // A write payload's `object` is the record its read-back read (counted with the write), kept for the request.
  const writePayloads = new Set(
    Object.values(mutation?.getFields() ?? {})
      .map((field) => namedTypeOf(schema, field))
      .filter((payload) => answersVerifiedWrite(schema, payload))
      .map((payload) => payload?.name),
  );
  const kinds = new Map<string, UpstreamCallKind>();
  for (const type of types) {
    for (const field of Object.values(type.getFields())) {
      const named = namedTypeOf(schema, field);
      let kind: UpstreamCallKind | undefined;
      if (type === mutation) kind = answersVerifiedWrite(schema, named) ? 'verifiedWrite' : 'write';
      else if (writePayloads.has(type.name) && field.name === 'object') kind = undefined;
      else if (named?.name === METADATA_TYPE) kind = 'perObject';
      else if (isObjectConnection(schema, named)) kind = 'page';
      else if (isSameRecord(type, named)) kind = undefined;
      else if (isUpstreamObject(named) && !answersList(field) && !edgeTypes.has(type.name)) kind = 'byId';
      if (kind !== undefined) kinds.set(`${type.name}.${field.name}`, kind);
    }
  }
  return kinds;
}
