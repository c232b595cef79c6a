/**
 * Reads one `type X @dataObject(…) { … }` definition into an {@link ObjectTypeSpec}, reporting each mistake
 * with its line and fix.
 */
import { Kind, type FieldDefinitionNode, type ObjectTypeDefinitionNode, type TypeNode } from 'graphql';
import { deriveNames } from './derive-names.ts';
import { readDirectives, type DirectiveSpec } from './directives.ts';
import {
  FIELD_SCALARS,
  isFieldScalar,
  type FieldSpec,
  type ObjectTypeSpec,
  type TypeRef,
} from './object-type-spec.ts';
import { locate, problemAt, type SchemaProblem } from './schema-problem.ts';

/** What reading one definition needs to know about the others. */
export interface ReadTypeContext {
  /** The directives allowed in object files. */
  directives: Map<string, DirectiveSpec>;
  /** Names of the `@dataObject` types declared in all object files (targets of `@ref`). */
  dataObjectTypes: ReadonlySet<string>;
  /** The folder shown in fixes, `schema/objects`. */
  dir: string;
  problems: SchemaProblem[];
}

const GRAPHQL_NAME = /^(?!__)[_A-Za-z][_0-9A-Za-z]*$/;
const SCALAR_LIST = `${FIELD_SCALARS.slice(0, -1).join(', ')} or ${FIELD_SCALARS.at(-1) ?? ''}`;

/** The value type of a field whose named type is a scalar; `undefined` otherwise. */
function toTypeRef(type: TypeNode, nonNull = false): TypeRef | undefined {
  if (type.kind === Kind.NON_NULL_TYPE) return toTypeRef(type.type, true);
  if (type.kind === Kind.LIST_TYPE) {
    const of = toTypeRef(type.type);
    return of === undefined ? undefined : { kind: 'list', of, nonNull };
  }
  return isFieldScalar(type.name.value) ? { kind: 'scalar', name: type.name.value, nonNull } : undefined;
}

function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
}

/** A dotted record path: non-empty segments, not `_id` (that is `id`'s). */
function checkPath(path: string, node: FieldDefinitionNode, owner: string, ctx: ReadTypeContext): void {
  if (path.split('.').some((segment) => segment === '') || path === '_id' || path.startsWith('_id.')) {
    ctx.problems.push(
      problemAt(
        node,
        `${owner}: "${path}" is not a usable record path.`,
        'write dotted field names such as "customer.id" (no empty segment; `_id` is the `id` field).',
      ),
    );
  }
}

function readField(
  field: FieldDefinitionNode,
  typeName: string,
  ctx: ReadTypeContext,
): FieldSpec | undefined {
  const name = field.name.value;
  const owner = `${typeName}.${name}`;
  const { problems } = ctx;
  const found = readDirectives(field.directives, 'FIELD_DEFINITION', owner, ctx.directives, problems);
  const ref = found.get('ref');
  const at = found.get('field');
  if ((field.arguments ?? []).length > 0) {
    problems.push(problemAt(field, `${owner}: typed fields take no arguments.`, 'remove the arguments.'));
  }
  if (name === 'id') {
    const ok = field.type.kind === Kind.NON_NULL_TYPE && namedType(field.type) === 'ID';
    if (!ok || ref !== undefined || at !== undefined) {
      problems.push(
        problemAt(
          field,
          `${owner} must be \`id: ID!\`.`,
          "write `id: ID!`: it is always the upstream's `_id`.",
        ),
      );
    }
    return { kind: 'id', name: 'id' };
  }
  if (name === '_id') {
    problems.push(
      problemAt(field, `${owner}: \`_id\` is mapped for you.`, 'declare `id: ID!` instead of `_id`.'),
    );
    return undefined;
  }
  const target = namedType(field.type);
  if (ref !== undefined && at !== undefined) {
    problems.push(
      problemAt(
        field,
        `${owner} has both @ref and @field.`,
        '@ref(field:) already names the record path; remove @field.',
      ),
    );
  }
  if (ref !== undefined) {
    if (!ctx.dataObjectTypes.has(target)) {
      const declared = [...ctx.dataObjectTypes].sort().join(', ') || 'none yet';
      problems.push(
        problemAt(
          field.type,
          `${owner}: @ref points at ${target}, which is not a @dataObject type.`,
          `declare \`type ${target} @dataObject(name: "…") { id: ID! … }\` in a file of ${ctx.dir}/, or point the field at one of: ${declared}.`,
        ),
      );
    } else if (field.type.kind !== Kind.NAMED_TYPE) {
      problems.push(
        problemAt(
          field.type,
          `${owner}: a @ref field holds one nullable reference.`,
          `write \`${name}: ${target} @ref(field: "…")\` (no list, no \`!\`: a reference to a missing object is null).`,
        ),
      );
    }
    if (ref.field === undefined) return undefined;
    checkPath(ref.field, field, owner, ctx);
    return { kind: 'ref', name, path: ref.field, target };
  }
  if (ctx.dataObjectTypes.has(target)) {
    problems.push(
      problemAt(
        field,
        `${owner} has the type ${target} but no @ref.`,
        `add @ref(field: "…") naming the record path that holds the ${target}'s id, for example @ref(field: "${name}.id").`,
      ),
    );
    return undefined;
  }
  const type = toTypeRef(field.type);
  if (type === undefined) {
    problems.push(
      problemAt(
        field.type,
        `${owner}: unknown type ${target}.`,
        `use ${SCALAR_LIST} (or lists of them), or a @dataObject type with @ref.`,
      ),
    );
    return undefined;
  }
  const path = at?.path ?? name;
  checkPath(path, field, owner, ctx);
  return { kind: 'value', name, path, type };
}

/** Two fields writing the same record path, or one inside the other, would overwrite each other. */
function checkPathOverlaps(
  fields: FieldSpec[],
  nodes: FieldDefinitionNode[],
  typeName: string,
  ctx: ReadTypeContext,
) {
  const seen: { name: string; path: string }[] = [];
  fields.forEach((field, i) => {
    if (field.kind === 'id') return;
    const clash = seen.find(
      (s) =>
        s.path === field.path || s.path.startsWith(`${field.path}.`) || field.path.startsWith(`${s.path}.`),
    );
    const node = nodes[i];
    if (clash !== undefined && node !== undefined) {
      ctx.problems.push(
        problemAt(
          node,
          `${typeName}.${field.name} uses the record path "${field.path}", which overlaps ${typeName}.${clash.name} ("${clash.path}").`,
          'give each field its own record path (@field(path: "…") or @ref(field: "…")).',
        ),
      );
    }
    seen.push({ name: field.name, path: field.path });
  });
}

/** The spec of one definition; `undefined` when it has problems (they are in `ctx.problems`). */
export function readTypeSpec(
  definition: ObjectTypeDefinitionNode,
  ctx: ReadTypeContext,
): ObjectTypeSpec | undefined {
  const { problems } = ctx;
  const before = problems.length;
  const typeName = definition.name.value;
  const found = readDirectives(definition.directives, 'OBJECT', typeName, ctx.directives, problems);
  const dataObject = found.get('dataObject');
  if (dataObject === undefined) {
    problems.push(
      problemAt(
        definition.name,
        `type ${typeName} has no @dataObject.`,
        `declare it as \`type ${typeName} @dataObject(name: "com.example.${typeName}") { … }\`: files of ${ctx.dir}/ hold only typed objects.`,
      ),
    );
    return undefined;
  }
  if ((definition.interfaces ?? []).length > 0) {
    problems.push(
      problemAt(
        definition,
        `type ${typeName} implements interfaces.`,
        'remove `implements …`: typed objects stand alone.',
      ),
    );
  }
  for (const key of ['single', 'plural'] as const) {
    const value = dataObject[key];
    if (value !== undefined && !GRAPHQL_NAME.test(value)) {
      problems.push(
        problemAt(
          definition,
          `type ${typeName}: ${key}: "${value}" is not a GraphQL name.`,
          'use letters, digits and `_`, not starting with a digit or `__`.',
        ),
      );
    }
  }
  const nodes = [...(definition.fields ?? [])];
  const fields: FieldSpec[] = [];
  const fieldNodes: FieldDefinitionNode[] = [];
  const names = new Set<string>();
  for (const node of nodes) {
    if (names.has(node.name.value)) {
      problems.push(
        problemAt(node, `${typeName}.${node.name.value} is declared twice.`, 'keep one declaration.'),
      );
      continue;
    }
    names.add(node.name.value);
    const field = readField(node, typeName, ctx);
    if (field === undefined) continue;
    fields.push(field);
    fieldNodes.push(node);
  }
  if (!names.has('id')) {
    problems.push(
      problemAt(
        definition.name,
        `type ${typeName} has no id field.`,
        "add `id: ID!` (it maps to the upstream's `_id`).",
      ),
    );
  }
  if (names.has('id') && names.size === 1) {
    problems.push(
      problemAt(
        definition.name,
        `type ${typeName} declares only id.`,
        'declare at least one field of the record besides `id`.',
      ),
    );
  }
  checkPathOverlaps(fields, fieldNodes, typeName, ctx);
  if (problems.length > before || dataObject.name === undefined) return undefined;
  return {
    typeName,
    objectName: dataObject.name,
    names: deriveNames(typeName, { single: dataObject.single, plural: dataObject.plural }),
    fields,
    location: locate(definition.name),
    definition,
  };
}
