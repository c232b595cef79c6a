/**
 * The object types a team declared for the gateway (`@dataObject(name: "…")` in `schema/objects/*.graphql`),
 * so that the emulator serves them too: a team can save and read its own types offline. The emulator reads
 * the SDL itself with graphql-js's parser rather than the gateway's typed-API code, so that it keeps
 * sharing nothing but wire types with the gateway (docs/design.md).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, type ConstValueNode } from 'graphql';

/** The gateway's folder of typed object types, next to this folder. */
export const DEFAULT_OBJECT_TYPES_DIR = join(import.meta.dirname, '..', '..', 'schema', 'objects');

const stringValue = (value: ConstValueNode | undefined): string | undefined =>
  value?.kind === Kind.STRING ? value.value : undefined;

/**
 * Every `@dataObject(name:)` of the `*.graphql` files of `dir`, in file order; none when `dir` does not
 * exist. A file that does not parse is skipped: the gateway reports it with its line when it starts.
 */
export function readDeclaredObjectNames(dir: string = DEFAULT_OBJECT_TYPES_DIR): string[] {
  if (!existsSync(dir)) return [];
  const names: string[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()) {
    let document;
    try {
      document = parse(readFileSync(join(dir, file), 'utf8'), { noLocation: true });
    } catch {
      continue;
    }
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
      const directive = definition.directives?.find((d) => d.name.value === 'dataObject');
      const name = stringValue(directive?.arguments?.find((a) => a.name.value === 'name')?.value);
      if (name !== undefined) names.push(name);
    }
  }
  return names;
}
