/**
 * The SDL the gateway generates for the typed object types: the types as written, their connection, edge,
 * where, input, patch and payload types, and the query and mutation fields.
 */
import { Kind, print, type FieldDefinitionNode, type ObjectTypeDefinitionNode } from 'graphql';
import { MAX_COMPILED_PATTERN_LENGTH, MAX_IN_VALUES } from '../filters/compile-criteria.ts';
import {
  isFilterable,
  printTypeRef,
  type FieldSpec,
  type ObjectTypeSpec,
  type TypeRef,
} from './spec/object-type-spec.ts';
import { withIndefiniteArticle } from '../errors/indefinite-article.ts';
import { FILTER_INPUT_NAMES, filterInputOf, TYPED_FILTER_SDL } from './filter-inputs.ts';

/**
 * The union of every typed object type, which the generic `DataObject.typed` answers: one record, read
 * through either API, is two entries in a client's normalized cache (`DataObject:<id>` and `LoanType:<id>`),
 * so each side offers the other's, and a write's answer can carry both.
 */
export const TYPED_OBJECT_UNION = 'TypedObject';

/** The names the typed API's shared SDL takes: the filter inputs and {@link TYPED_OBJECT_UNION}. */
export const SHARED_FILTER_TYPES = [...FILTER_INPUT_NAMES, TYPED_OBJECT_UNION];

const SHARED_SDL = `
"""
A condition on a \`String\` field of a typed object. The conditions of a \`where\`, and those set in one
\`FieldFilter\`, are combined with AND (\`ID\`, \`Int\`, \`Long\`, \`Float\`, \`Boolean\` and \`DateTime\` fields take
\`IDFilter\`, \`IntFilter\`, \`LongFilter\`, \`FloatFilter\`, \`BooleanFilter\` and \`DateTimeFilter\`: values of their own type).
A condition left out or \`null\` does not filter. The gateway compiles each into the upstream's only
operator, \`matches\`, from escaped text (at most ${MAX_COMPILED_PATTERN_LENGTH} characters once compiled); under
\`UPSTREAM_MATCHES=exact\` only \`equals\` (case-sensitive) and \`matches\` can be honoured. Refusals are
\`BAD_USER_INPUT\` naming the input.
"""
input FieldFilter {
  """
  A regular expression the whole value must match (the upstream's \`matches\`, Java's \`String.matches\`),
  for example \`Home.*\`; refused (\`BAD_USER_INPUT\`, with the reason) when the gateway's pattern guard
  finds it risky. For experts: the other conditions need no regular expression.
  """
  matches: String
  """
  The whole value equals this text; the gateway escapes it for the upstream's \`matches\`.
  """
  equals: String
  """
  The whole value equals one of these texts (at most ${MAX_IN_VALUES}; an empty list matches nothing).
  """
  in: [String!]
  """
  The value contains this text anywhere, line breaks included.
  """
  contains: String
  """
  The value starts with this text.
  """
  startsWith: String
  """
  The value ends with this text.
  """
  endsWith: String
  """
  Letters of \`equals\`, \`in\`, \`contains\`, \`startsWith\` and \`endsWith\` match in any case, character by
  character (\`ǅ\`, \`ǆ\` and \`Ǆ\`; \`ß\` and \`ẞ\`, not \`SS\`). Not for \`matches\`.
  """
  caseInsensitive: Boolean
}

"""
A condition on a reference field: on the id of the referenced object.
"""
input RefFilter {
  """
  Condition on the referenced object's id.
  """
  id: IDFilter
}
${TYPED_FILTER_SDL}`;

/** A GraphQL string literal: JSON's string escapes are GraphQL's. */
const doc = (text: string): string => JSON.stringify(text);

function descriptionOf(spec: ObjectTypeSpec, name: string): string | undefined {
  return spec.definition.fields?.find((f) => f.name.value === name)?.description?.value;
}

const optional = (type: TypeRef): TypeRef => ({ ...type, nonNull: false });

function inputLines(spec: ObjectTypeSpec, patch: boolean): string[] {
  const fields = spec.fields.filter((f): f is Exclude<FieldSpec, { kind: 'id' }> => f.kind !== 'id');
  return fields.map((field) => {
    const own = descriptionOf(spec, field.name);
    if (field.kind === 'ref') {
      const text = `Id of the ${field.target} this field refers to (stored at \`${field.path}\`).`;
      return `  ${doc(patch ? `${text} Left out: unchanged; null: cleared.` : text)}\n  ${field.name}: ID`;
    }
    const base = own ?? `Stored at \`${field.path}\`.`;
    const type = printTypeRef(patch ? optional(field.type) : field.type);
    const text = patch ? `${base} Left out: unchanged${field.type.nonNull ? '' : '; null: cleared'}.` : base;
    return `  ${doc(text)}\n  ${field.name}: ${type}`;
  });
}

function whereLines(spec: ObjectTypeSpec): string[] {
  return spec.fields.filter(isFilterable).map((field) => {
    if (field.kind === 'ref')
      return `  ${doc(`Condition on the id of the ${field.target}.`)}\n  ${field.name}: RefFilter`;
    const path = field.kind === 'id' ? '_id' : field.path;
    return `  ${doc(`Condition on \`${field.name}\` (record path \`${path}\`).`)}\n  ${field.name}: ${filterInputOf(field)}`;
  });
}

/** Whether the type gets the derived `metadata` field (not when its SDL declares a field of that name). */
export function hasDerivedMetadata(spec: ObjectTypeSpec): boolean {
  return !(spec.definition.fields ?? []).some((f) => f.name.value === METADATA_FIELD);
}

/** The field the typed types get for the upstream's metadata, like `DataObject.metadata`. */
export const METADATA_FIELD = 'metadata';

/** The derived field of every typed type giving the same record as a `DataObject`. */
export const DATA_OBJECT_FIELD = 'dataObject';

/** Whether the gateway adds {@link DATA_OBJECT_FIELD} to `spec`'s type (not when a field of the type has its name). */
export function hasDerivedDataObject(spec: ObjectTypeSpec): boolean {
  return !(spec.definition.fields ?? []).some((f) => f.name.value === DATA_OBJECT_FIELD);
}

const described = (field: FieldDefinitionNode, text: string): FieldDefinitionNode =>
  field.description ? field : { ...field, description: { kind: Kind.STRING, value: text, block: true } };

/** The type as written, with a description on its `id` if it has none, and the derived `metadata` field. */
function typeDefinition(spec: ObjectTypeSpec): ObjectTypeDefinitionNode {
  const idName = spec.fields.find((f) => f.kind === 'id')?.name;
  const idText = `The upstream's \`_id\` of this ${spec.typeName}: unique, assigned by the upstream when it is created.`;
  const fields = (spec.definition.fields ?? []).map((f) =>
    f.name.value === idName ? described(f, idText) : f,
  );
  if (hasDerivedMetadata(spec)) {
    const parsed = metadataFieldNode(
      `The upstream's metadata of this ${spec.typeName} (category \`none\`); one upstream call per object, so not on every object of a large page.`,
    );
    fields.push(parsed);
  }
  if (hasDerivedDataObject(spec)) {
    fields.push(
      derivedFieldNode(
        DATA_OBJECT_FIELD,
        `The same record through the generic API. Select it (\`id\` and \`data\`) in a write's answer, and a client's normalized cache updates its \`DataObject\` entry of this record too.`,
        { kind: Kind.NON_NULL_TYPE, type: namedType('DataObject') },
      ),
    );
  }
  return { ...spec.definition, fields };
}

const namedType = (name: string) =>
  ({ kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: name } }) as const;

function derivedFieldNode(
  name: string,
  description: string,
  type: FieldDefinitionNode['type'],
): FieldDefinitionNode {
  return {
    kind: Kind.FIELD_DEFINITION,
    description: { kind: Kind.STRING, value: description, block: true },
    name: { kind: Kind.NAME, value: name },
    arguments: [],
    type,
    directives: [],
  };
}

function metadataFieldNode(description: string): FieldDefinitionNode {
  return derivedFieldNode(METADATA_FIELD, description, namedType('ObjectMetadata'));
}

/**
 * What a save or an update of a typed type returns (`payload`, named after `mutation`): the object's id,
 * the upstream's message, `moreFields` (SDL lines, each ending in a newline) and the object as read back.
 */
function writePayloadSdl(
  T: string,
  mutation: string,
  payload: string,
  idDoc: string,
  moreFields = '',
): string {
  return `${doc(`What \`${mutation}\` returns.`)}
type ${payload} {
  ${doc(idDoc)}
  id: ID!
  ${doc("The upstream's message.")}
  message: String
${moreFields}  ${doc('The object as read back after the write.')}
  object: ${T}
}`;
}

function typeSdl(spec: ObjectTypeSpec): string {
  const { typeName: T, objectName, names } = spec;
  return `
${print(typeDefinition(spec))}

${doc(`A page of ${T} objects (Relay connection).`)}
type ${names.connection} {
  ${doc('How many objects match the `where` in all pages.')}
  totalCount: Int!
  ${doc('The objects of this page with their cursors.')}
  edges: [${names.edge}!]!
  ${doc(`The objects of this page. An object whose non-null field holds a bad upstream value is \`null\` here (with a \`BAD_UPSTREAM_VALUE\` error); the others stay.`)}
  nodes: [${T}]!
  ${doc('Where this page stands.')}
  pageInfo: PageInfo!
}

${doc(`An edge of ${withIndefiniteArticle(names.connection)}.`)}
type ${names.edge} {
  ${doc('Opaque cursor of this edge, for `after` and `before`.')}
  cursor: String!
  ${doc(`The ${T}; \`null\` when a non-null field holds a bad upstream value (see the errors).`)}
  node: ${T}
}

${doc(`Conditions on ${T} fields, combined with AND.`)}
input ${names.where} {
${whereLines(spec).join('\n')}
}

${doc(`The fields of a new ${T}.`)}
input ${names.input} {
${inputLines(spec, false).join('\n')}
}

${doc(`The ${T} fields to change; at least one.`)}
input ${names.patch} {
${inputLines(spec, true).join('\n')}
}

${writePayloadSdl(T, names.save, names.savePayload, 'Id of the new object.')}

${writePayloadSdl(
  T,
  names.update,
  names.updatePayload,
  'Id of the updated object.',
  `  ${doc('The record fields the upstream changed, with their new values.')}
  updatedFields: JSONObject!
`,
)}

extend type Query {
  ${doc(`One ${T} (\`${objectName}\`) by id; \`null\` when it does not exist.`)}
  ${names.single}(id: ID!): ${T}
  ${doc(`A page of ${T} objects matching \`where\`: \`first\`/\`after\` forward, \`last\`/\`before\` backward; default page size 20, at most \`MAX_PAGE_SIZE\`.`)}
  ${names.plural}(where: ${names.where}, first: Int, after: String, last: Int, before: String): ${names.connection}!
}

extend type Mutation {
  ${doc(`Creates ${withIndefiniteArticle(T)}.`)}
  ${names.save}(input: ${names.input}!): ${names.savePayload}!
  ${doc(`Changes fields of an existing ${T}.`)}
  ${names.update}(id: ID!, input: ${names.patch}!): ${names.updatePayload}!
}
`;
}

/** The union of the typed types, and the generic `DataObject`'s way to it. */
function typedObjectSdl(specs: readonly ObjectTypeSpec[]): string {
  return `
${doc('Every typed object type (`schema/objects/`): what `DataObject.typed` answers.')}
union ${TYPED_OBJECT_UNION} = ${specs.map((spec) => spec.typeName).join(' | ')}

extend type DataObject {
  ${doc(`The same record as its typed object type (\`... on LoanType { id rate }\`); \`null\` when no type of \`schema/objects/\` declares its \`objectName\`. Select it in a generic write's answer, and a client's normalized cache (Apollo Client, urql's graphcache, Relay) updates the typed entry of this record too: the two APIs' entries are kept apart by type.`)}
  typed: ${TYPED_OBJECT_UNION}
}
`;
}

/** The typed API's SDL: the shared filter inputs, then each type's definitions, in the specs' order. */
export function buildTypeDefs(specs: readonly ObjectTypeSpec[]): string[] {
  return [SHARED_SDL, ...specs.map(typeSdl), ...(specs.length > 0 ? [typedObjectSdl(specs)] : [])];
}
