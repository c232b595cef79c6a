/**
 * `RELAY_NODE=true`, the schema side: Relay's Global Object Identification
 * (https://relay.dev/graphql/objectidentification.htm). Every typed object type and `DataObject` implement
 * `interface Node { id: ID! }`, their `id` becomes the global id and `upstreamId` keeps the upstream's `_id`
 * readable, and `Query` gains `node(id:)` and `nodes(ids:)`. Off by default because `id` changes meaning.
 *
 * The write payloads lose their `id`: Relay's store keys every record by its `id` alone, whatever its type,
 * so a payload answering its object's global id as its own would be merged with the object into one record
 * (the object's fields overwritten, its `__typename` the payload's). A payload has the object under `object`
 * (Relay's mutation convention) and the written object's upstream `_id` as `upstreamId`.
 */
import { Kind, parse, visit, type DocumentNode, type FieldDefinitionNode } from 'graphql';
import { MAX_GLOBAL_ID_LENGTH } from './global-id.ts';
import type { ObjectTypeSpec } from './spec/object-type-spec.ts';

/** The generic type that also implements `Node`. */
export const GENERIC_NODE_TYPE = 'DataObject';

/** The field that keeps the upstream's `_id` readable once `id` is the global id. */
export const UPSTREAM_ID_FIELD = 'upstreamId';

/**
 * The most ids one `nodes(ids:)` takes: one page's worth, as `MAX_IDS_PER_BATCH` ids make one upstream call
 * (fewer per call under `UPSTREAM_MAX_PAGE_SIZE`).
 */
export const MAX_NODE_IDS = 100;

const NODE_SDL = `
"""
An object with a global id (Relay's Global Object Identification, \`RELAY_NODE=true\`): every typed object type
and \`DataObject\`. Refetch any of them with \`node(id:)\`.
"""
interface Node {
  """
  The global id: opaque, it names the type and the upstream id. The upstream's \`_id\` is \`upstreamId\`.
  """
  id: ID!
}

extend type Query {
  """
  The object of a global id, or \`null\` when it no longer exists. An id this gateway did not write is
  \`BAD_USER_INPUT\` and costs no upstream call. Reads through the batching loader.
  """
  node(
    """
    A global id (the \`id\` of a \`Node\`).
    """
    id: ID!
  ): Node
  """
  The objects of global ids, in the order of \`ids\` (\`null\` for one that no longer exists); at most ${String(MAX_NODE_IDS)}
  ids. The ids of one type cost one upstream call.
  """
  nodes(
    """
    Global ids (the \`id\` of \`Node\`s), each at most ${String(MAX_GLOBAL_ID_LENGTH)} characters.
    """
    ids: [ID!]!
  ): [Node]!
}
`;

const text = (value: string) => ({ kind: Kind.STRING, value, block: true }) as const;

function upstreamIdField(typeName: string): FieldDefinitionNode {
  return {
    kind: Kind.FIELD_DEFINITION,
    description: text(`The upstream's \`_id\` of this ${typeName}: what filters and inputs take.`),
    name: { kind: Kind.NAME, value: UPSTREAM_ID_FIELD },
    arguments: [],
    type: {
      kind: Kind.NON_NULL_TYPE,
      type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: 'ID' } },
    },
    directives: [],
  };
}

/** The write payloads: the generic ones and each typed type's. */
function payloadTypeNames(specs: readonly ObjectTypeSpec[]): string[] {
  return [
    'SavePayload',
    'UpdatePayload',
    ...specs.flatMap((s) => [s.names.savePayload, s.names.updatePayload]),
  ];
}

/** A payload's `id` becomes `upstreamId`: not `id`, which Relay's store takes for the record's identity. */
function withoutPayloadId(fields: readonly FieldDefinitionNode[]): FieldDefinitionNode[] {
  return fields.map((field) =>
    field.name.value === 'id'
      ? {
          ...field,
          name: { kind: Kind.NAME, value: UPSTREAM_ID_FIELD },
          description: text(
            "The upstream's `_id` of the written object. Its global id is `object { id }`: a payload has no `id` of its own, so Relay's store keeps it apart from the object.",
          ),
        }
      : field,
  );
}

/** The names of the types that implement `Node`. */
function nodeTypeNames(specs: readonly ObjectTypeSpec[]): string[] {
  return [GENERIC_NODE_TYPE, ...specs.map((spec) => spec.typeName)];
}

/**
 * The SDL with `Node`, `node`, `nodes`, every node type implementing `Node` with `upstreamId`, and the write
 * payloads' `id` renamed `upstreamId`.
 * @throws Error when a typed type already declares `upstreamId`.
 */
export function withRelayNode(document: DocumentNode, specs: readonly ObjectTypeSpec[]): DocumentNode {
  const nodeTypes = new Set(nodeTypeNames(specs));
  const payloadTypes = new Set(payloadTypeNames(specs));
  const transformed = visit(document, {
    ObjectTypeDefinition(node) {
      if (payloadTypes.has(node.name.value)) return { ...node, fields: withoutPayloadId(node.fields ?? []) };
      if (!nodeTypes.has(node.name.value)) return undefined;
      const typeName = node.name.value;
      const fields = node.fields ?? [];
      if (fields.some((field) => field.name.value === UPSTREAM_ID_FIELD)) {
        throw new Error(
          `RELAY_NODE: type ${typeName} declares "${UPSTREAM_ID_FIELD}", the field RELAY_NODE adds for the upstream's _id. Fix: rename that field, or leave RELAY_NODE off.`,
        );
      }
      const idText = `The global id of this ${typeName} (Relay): opaque; \`${UPSTREAM_ID_FIELD}\` is the upstream's \`_id\`.`;
      return {
        ...node,
        interfaces: [
          ...(node.interfaces ?? []),
          { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: 'Node' } },
        ],
        fields: [
          ...fields.map((field) =>
            field.name.value === 'id' ? { ...field, description: text(idText) } : field,
          ),
          upstreamIdField(typeName),
        ],
      };
    },
  });
  return { ...transformed, definitions: [...transformed.definitions, ...parse(NODE_SDL).definitions] };
}
