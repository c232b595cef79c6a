/**
 * Every GraphQL document the repository sends, as written: the executable documents among the string
 * literals of the tests, the examples, the bench and the scripts (a literal with an interpolation is left
 * out: its text is only known at run time), the `.graphql` files holding operations, and the README's
 * `graphql` blocks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kind, parse, print, type DocumentNode } from 'graphql';
import { readmeBlocks } from './readme-blocks.ts';

/** One document and where it was found. */
export interface SentDocument {
  text: string;
  document: DocumentNode;
  /** `file` or `README.md:line`. */
  from: string;
}

const ROOTS = ['test', 'examples', 'bench', 'scripts'];
const SOURCE = /\.(ts|tsx|graphql)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'generated', 'dist', 'results']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : filesUnder(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** The string literals of a source file that might hold a document (a brace at least). */
function literalsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/`([^`]*)`/g)) {
    const text = match[1] ?? '';
    if (!text.includes('${') && text.includes('{')) found.push(text.replaceAll('\\`', '`'));
  }
  for (const match of source.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g)) {
    const text = match[1] ?? match[2] ?? '';
    if (!text.includes('{')) continue;
    try {
      found.push(JSON.parse(`"${text.replaceAll('"', '\\"').replaceAll("\\'", "'")}"`) as string);
    } catch {
      // Not a JSON-compatible escape: not a document either.
    }
  }
  return found;
}

/** The document in `text` when it is one with an operation. */
function executableDocument(text: string): DocumentNode | undefined {
  if (!/\b(query|mutation|subscription)\b|^\s*\{/.test(text)) return undefined;
  try {
    const document = parse(text);
    return document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION) ? document : undefined;
  } catch {
    return undefined;
  }
}

/** Every document the repository sends, each once (by its printed form). */
export function sentDocuments(): SentDocument[] {
  const byPrinted = new Map<string, SentDocument>();
  const add = (text: string, from: string) => {
    const document = executableDocument(text);
    if (document === undefined) return;
    const printed = print(document);
    if (!byPrinted.has(printed)) byPrinted.set(printed, { text, document, from });
  };
  for (const file of ROOTS.flatMap(filesUnder)) {
    const source = readFileSync(file, 'utf8');
    if (file.endsWith('.graphql')) add(source, file);
    else for (const literal of literalsOf(source)) add(literal, file);
  }
  for (const block of readmeBlocks('graphql')) add(block.text, `README.md:${block.line}`);
  return [...byPrinted.values()];
}
