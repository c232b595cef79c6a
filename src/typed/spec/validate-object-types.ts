/**
 * Validates the typed object files as a whole: each definition (through `readTypeSpec`), then what only the
 * set shows: a type or an `objectName` declared twice, and generated names that collide with each other or
 * with the generic API.
 */
import { Kind, parse, type ObjectTypeDefinitionNode } from 'graphql';
import { typedDirectiveSpecs } from './directives.ts';
import type { ObjectTypeSpec } from './object-type-spec.ts';
import type { ObjectFile } from './read-object-files.ts';
import { readTypeSpec } from './read-type-spec.ts';
import { locate, problemAt, type SchemaProblem } from './schema-problem.ts';
import { withIndefiniteArticle } from '../../errors/indefinite-article.ts';
import { suggestTypeName } from './suggest-type-name.ts';

/** Names the rest of the schema already uses, by kind. */
export interface TakenNames {
  types: Set<string>;
  query: Set<string>;
  mutation: Set<string>;
}

/** The type names and root fields of the generic SDL (definitions and `extend type`). */
export function collectTakenNames(typeDefs: readonly string[]): TakenNames {
  const taken: TakenNames = { types: new Set(), query: new Set(), mutation: new Set() };
  for (const text of typeDefs) {
    for (const definition of parse(text, { noLocation: true }).definitions) {
      if (!('name' in definition) || definition.name === undefined) continue;
      const name = definition.name.value;
      if (definition.kind !== Kind.DIRECTIVE_DEFINITION) taken.types.add(name);
      if (definition.kind === Kind.OBJECT_TYPE_DEFINITION || definition.kind === Kind.OBJECT_TYPE_EXTENSION) {
        const fields = (definition.fields ?? []).map((f) => f.name.value);
        if (name === 'Query') fields.forEach((f) => taken.query.add(f));
        if (name === 'Mutation') fields.forEach((f) => taken.mutation.add(f));
      }
    }
  }
  return taken;
}

/** Options of {@link validateObjectTypes}. */
export interface ValidateOptions {
  /** The folder shown in fixes. */
  dir: string;
  /** Names of the generic schema. */
  taken: TakenNames;
  /** Type names the typed API itself adds once (its filter inputs). */
  sharedTypeNames: readonly string[];
}

const at = (spec: ObjectTypeSpec): string => `${spec.location.file}:${spec.location.line}`;

function objectNameNode(definition: ObjectTypeDefinitionNode) {
  const directive = definition.directives?.find((d) => d.name.value === 'dataObject');
  return directive?.arguments?.find((a) => a.name.value === 'name')?.value ?? definition;
}

/** The upstream `objectName` a definition's `@dataObject` names, when it names one. */
function objectNameOf(definition: ObjectTypeDefinitionNode): string | undefined {
  const node = objectNameNode(definition);
  return node.kind === Kind.STRING ? node.value : undefined;
}

/**
 * A type name declared a second time. Two upstream types may share a simple name (a team's
 * `com.corp.Order` beside the demo's `com.example.Order`): the fix names a free GraphQL name for each, or
 * deleting the one no front-end reads.
 */
function declaredTwice(
  definition: ObjectTypeDefinitionNode,
  first: ObjectTypeDefinitionNode,
  all: readonly ObjectTypeDefinitionNode[],
): SchemaProblem {
  const name = definition.name.value;
  const where = locate(first.name);
  const firstAt = `${where.file}:${String(where.line)}`;
  const [mine, theirs] = [objectNameOf(definition), objectNameOf(first)];
  if (mine === undefined || theirs === undefined || mine === theirs) {
    return problemAt(
      definition.name,
      `type ${name} is declared twice (first at ${firstAt}).`,
      'keep one declaration; rename the other type.',
    );
  }
  const taken = new Set(all.map((d) => d.name.value));
  const here = locate(definition.name);
  const renamed = (objectName: string) =>
    `\`type ${suggestTypeName(objectName, taken)} @dataObject(name: "${objectName}")\``;
  return problemAt(
    definition.name,
    `type ${name} is declared twice: for ${theirs} (${firstAt}) and for ${mine} (${here.file}:${String(here.line)}); one schema holds one type ${name}.`,
    `rename one of them (${renamed(mine)}, or ${renamed(theirs)}; objects:infer takes \`--type-name\`), or delete the one no front-end reads.`,
  );
}

/** Checks that every generated name is free; records where each one comes from. */
function checkNames(specs: ObjectTypeSpec[], options: ValidateOptions, problems: SchemaProblem[]): void {
  const owners = {
    types: new Map<string, string>(),
    query: new Map<string, string>(),
    mutation: new Map<string, string>(),
  };
  for (const kind of ['types', 'query', 'mutation'] as const) {
    for (const name of options.taken[kind]) owners[kind].set(name, 'part of the generic API');
  }
  for (const name of options.sharedTypeNames) owners.types.set(name, "the typed API's filter input");
  const claim = (
    spec: ObjectTypeSpec,
    kind: keyof typeof owners,
    name: string,
    what: string,
    fix: string,
  ) => {
    const owner = owners[kind].get(name);
    if (owner === undefined) {
      owners[kind].set(name, `${what} of type ${spec.typeName} (${at(spec)})`);
      return;
    }
    problems.push(
      problemAt(spec.definition.name, `type ${spec.typeName}: ${what} "${name}" is already ${owner}.`, fix),
    );
  };
  const rename = 'rename the type (its objectName can stay).';
  for (const spec of specs) {
    const { names } = spec;
    const override = (arg: string) =>
      `choose another name: @dataObject(name: "${spec.objectName}", ${arg}: "…").`;
    claim(spec, 'types', spec.typeName, 'the type name', rename);
    for (const key of [
      'connection',
      'edge',
      'where',
      'input',
      'patch',
      'savePayload',
      'updatePayload',
    ] as const) {
      claim(spec, 'types', names[key], 'the generated type', rename);
    }
    claim(spec, 'query', names.single, 'the query field', override('single'));
    claim(spec, 'query', names.plural, 'the query field', override('plural'));
    claim(spec, 'mutation', names.save, 'the mutation', override('single'));
    claim(spec, 'mutation', names.update, 'the mutation', override('single'));
  }
}

/**
 * The specs of every typed object type in `files`; every mistake found goes to `problems` (the caller
 * refuses to start when there is any).
 */
export function validateObjectTypes(
  files: readonly ObjectFile[],
  options: ValidateOptions,
  problems: SchemaProblem[],
): ObjectTypeSpec[] {
  const definitions: ObjectTypeDefinitionNode[] = [];
  for (const { document } of files) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.OBJECT_TYPE_DEFINITION) definitions.push(definition);
      else {
        problems.push(
          problemAt(
            definition,
            `${withIndefiniteArticle(definition.kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase())} has no place here.`,
            `files of ${options.dir}/ hold only \`type Name @dataObject(name: "…") { … }\` definitions.`,
          ),
        );
      }
    }
  }
  const firstByName = new Map<string, ObjectTypeDefinitionNode>();
  const unique: ObjectTypeDefinitionNode[] = [];
  for (const definition of definitions) {
    const first = firstByName.get(definition.name.value);
    if (first === undefined) {
      firstByName.set(definition.name.value, definition);
      unique.push(definition);
      continue;
    }
    problems.push(declaredTwice(definition, first, definitions));
  }
  const dataObjectTypes = new Set(
    unique.filter((d) => d.directives?.some((x) => x.name.value === 'dataObject')).map((d) => d.name.value),
  );
  const context = { directives: typedDirectiveSpecs(), dataObjectTypes, dir: options.dir, problems };
  const specs: ObjectTypeSpec[] = [];
  const byObjectName = new Map<string, ObjectTypeSpec>();
  for (const definition of unique) {
    const spec = readTypeSpec(definition, context);
    if (spec === undefined) continue;
    const first = byObjectName.get(spec.objectName);
    if (first !== undefined) {
      problems.push(
        problemAt(
          objectNameNode(definition),
          `type ${spec.typeName}: ${spec.objectName} is already the objectName of type ${first.typeName} (${at(first)}).`,
          `declare each objectName in one type only: remove type ${spec.typeName} or merge its fields into type ${first.typeName}.`,
        ),
      );
      continue;
    }
    byObjectName.set(spec.objectName, spec);
    specs.push(spec);
  }
  checkNames(specs, options, problems);
  return specs;
}
