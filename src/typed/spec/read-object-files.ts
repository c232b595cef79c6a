/** Reads and parses the typed object SDL files (`schema/objects/*.graphql`). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import { GraphQLError, parse, Source, type DocumentNode } from 'graphql';
import type { SchemaProblem } from './schema-problem.ts';

/** One parsed file; its nodes' `loc.source.name` is `file`. */
export interface ObjectFile {
  /** The path shown in messages: relative to the working directory when inside it. */
  file: string;
  document: DocumentNode;
}

/** What {@link readObjectFiles} found: the files that parsed, and the syntax errors of the others. */
export interface ReadObjectFilesResult {
  files: ObjectFile[];
  problems: SchemaProblem[];
}

/** `path` as messages show it: relative to the working directory when inside it, else as given. */
export function displayPath(path: string): string {
  const shown = relative(process.cwd(), path);
  return shown.startsWith('..') || isAbsolute(shown) ? path : shown;
}

/** Parses SDL text as the file `file`: a syntax error becomes a problem at its line. */
function parseObjectFile(file: string, text: string): ObjectFile | SchemaProblem {
  try {
    return { file, document: parse(new Source(text, file), { noLocation: false }) };
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    const at = error.locations?.[0] ?? { line: 0, column: 0 };
    return {
      file,
      ...at,
      problem: error.message,
      fix: 'correct the GraphQL syntax (a type is written `type Name @dataObject(name: "…") { id: ID! … }`).',
    };
  }
}

/** Every `*.graphql` file of `dir`, in name order; a missing folder has none (the typed API is then empty). */
export function readObjectFiles(dir: string): ReadObjectFilesResult {
  const result: ReadObjectFilesResult = { files: [], problems: [] };
  if (!existsSync(dir)) return result;
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.graphql'))
    .sort();
  for (const name of names) {
    const path = join(dir, name);
    const parsed = parseObjectFile(displayPath(path), readFileSync(path, 'utf8'));
    if ('document' in parsed) result.files.push(parsed);
    else result.problems.push(parsed);
  }
  return result;
}
