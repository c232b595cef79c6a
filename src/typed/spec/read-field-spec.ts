/**
 * Reads one field of a typed object type into a {@link FieldSpec}: `id`, a checked value at a record path,
 * or a `@ref` to another typed type. Each mistake is reported with its line and fix.
 */
import { Kind, type FieldDefinitionNode, type TypeNode } from 'graphql';
import { readDirectives, type DirectiveSpec } from './directives.ts';
import { FIELD_SCALARS, isFieldScalar, type FieldSpec, type TypeRef } from './object-type-spec.ts';
import { problemAt, type SchemaProblem } from './schema-problem.ts';

/** What reading one definition needs to know about the others. */
export interface ReadTypeContext {
  /** The directives allowed in object files. */
  directives: Map<string, DirectiveSpec>;
  /** Names of the `@dataObject` types declared in all object files (targets of `@ref`). */
  dataObjectTypes: ReadonlySet<string>;
  /** The folder shown in fixes, `schema/objects`. */
  dir: string;
  /** Where every mistake found is added. */
  problems: SchemaProblem[];
}

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

/** The spec of one field; `undefined` when it cannot be served (the problem is in `ctx.problems`). */
export function readField(
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
