/**
 * Reads one `type X @dataObject(…) { … }` definition into an {@link ObjectTypeSpec}, reporting each mistake
 * with its line and fix.
 */
import type { FieldDefinitionNode, ObjectTypeDefinitionNode } from 'graphql';
import { deriveNames } from './derive-names.ts';
import { readDirectives } from './directives.ts';
import type { FieldSpec, ObjectTypeSpec } from './object-type-spec.ts';
import { readField, type ReadTypeContext } from './read-field-spec.ts';
import { locate, problemAt } from './schema-problem.ts';
import {
  isCacheAge,
  MAX_CACHE_AGE_SECONDS,
  type CachePolicy,
  type CacheScope,
} from '../../config/cache-settings.ts';

const GRAPHQL_NAME = /^(?!__)[_A-Za-z][_0-9A-Za-z]*$/;

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
  const cache = readCachePolicy(found.get('cacheControl'), definition, ctx);
  if (problems.length > before || dataObject.name === undefined) return undefined;
  return {
    typeName,
    objectName: dataObject.name,
    names: deriveNames(typeName, { single: dataObject.single, plural: dataObject.plural }),
    fields,
    location: locate(definition.name),
    definition,
    ...(cache === undefined ? {} : { cache }),
  };
}

/**
 * The type's `@cacheControl(maxAge:, scope:)` as a cache policy: `undefined` without one or with `maxAge: 0`
 * (never cached, Apollo's meaning); the scope `PRIVATE` unless it says `PUBLIC`.
 */
function readCachePolicy(
  args: Record<string, string> | undefined,
  definition: ObjectTypeDefinitionNode,
  ctx: ReadTypeContext,
): CachePolicy | undefined {
  if (args?.maxAge === undefined) return undefined;
  const maxAgeSeconds = Number(args.maxAge);
  if (maxAgeSeconds === 0) return undefined;
  if (!isCacheAge(maxAgeSeconds)) {
    ctx.problems.push(
      problemAt(
        definition.name,
        `type ${definition.name.value}: @cacheControl(maxAge: ${args.maxAge}) is out of range.`,
        `give maxAge from 0 (not cached) to ${MAX_CACHE_AGE_SECONDS} seconds.`,
      ),
    );
    return undefined;
  }
  // The directive's enum takes only these two: `readDirectives` checked the value.
  return { maxAgeSeconds, scope: (args.scope ?? 'PRIVATE') as CacheScope };
}
