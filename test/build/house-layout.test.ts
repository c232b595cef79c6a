/**
 * The house rules a newcomer relies on, checked on every run so that they stay true:
 *
 * - no import cycle between files of `src/` (type-only imports included), so every file can be read after the
 *   files it needs;
 * - no run-time cycle between folders of `src/`, so the folders form layers (errors and config at the bottom,
 *   `app/` at the top), nor between its top folders with their subfolders counted in (`http/capacity/` is
 *   `http/`);
 * - no folder of `src/` holds more than 15 files or 2,000 lines directly: past that it is two rooms;
 * - `bench/`, `scripts/` and `test/` never import one another; what they share lives in `support/`.
 *
 * Imports are read with the TypeScript parser, which says which ones are type-only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const MAX_FILES_PER_FOLDER = 15;
const MAX_LINES_PER_FOLDER = 2000;

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules') out.push(...sourceFiles(path));
    } else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  return clause.phaseModifier === ts.SyntaxKind.TypeKeyword;
}

/** Relative imports of one file (static, re-exports and dynamic `import()`), resolved to absolute paths. */
function importsOf(file: string): Edge[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const edges: Edge[] = [];
  const add = (specifier: string, typeOnly: boolean): void => {
    if (!specifier.startsWith('.')) return;
    edges.push({ from: file, to: resolve(dirname(file), specifier), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, isTypeOnlyImport(node));
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** Strongly connected components with more than one member, or a member importing itself (Tarjan). */
function cycles(nodes: Iterable<string>, next: (node: string) => Iterable<string>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strongConnect = (node: string): void => {
    indexOf.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next(node)) {
      if (!indexOf.has(target)) {
        strongConnect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(target)!));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = [...next(node)].includes(node);
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  };
  for (const node of nodes) if (!indexOf.has(node)) strongConnect(node);
  return found;
}

const short = (path: string): string => relative(ROOT, path);

describe('the house layout', () => {
  const srcFiles = sourceFiles(join(ROOT, 'src'));
  const srcEdges = srcFiles.flatMap(importsOf);

  it('has no import cycle between files of src/, type-only imports included', () => {
    const byFile = new Map<string, Set<string>>();
    for (const edge of srcEdges) {
      if (!byFile.has(edge.from)) byFile.set(edge.from, new Set());
      byFile.get(edge.from)!.add(edge.to);
    }
    const found = cycles(srcFiles, (file) => byFile.get(file) ?? []);
    expect(found.map((component) => component.map(short))).toEqual([]);
  });

  it('has no run-time cycle between folders of src/', () => {
    const byFolder = new Map<string, Set<string>>();
    for (const edge of srcEdges) {
      if (edge.typeOnly) continue;
      const from = dirname(edge.from);
      const to = dirname(edge.to);
      if (from === to) continue;
      if (!byFolder.has(from)) byFolder.set(from, new Set());
      byFolder.get(from)!.add(to);
    }
    const folders = new Set(srcFiles.map((file) => dirname(file)));
    const found = cycles(folders, (folder) => byFolder.get(folder) ?? []);
    // Name one file import per step, so a failure says where to cut.
    const explain = found.map((component) =>
      srcEdges
        .filter(
          (edge) =>
            !edge.typeOnly &&
            dirname(edge.from) !== dirname(edge.to) &&
            component.includes(dirname(edge.from)) &&
            component.includes(dirname(edge.to)),
        )
        .map((edge) => `${short(edge.from)} -> ${short(edge.to)}`),
    );
    expect(explain).toEqual([]);
  });

  it('has no run-time cycle between the top folders of src/, subfolders counted in', () => {
    const topOf = (file: string): string => relative(join(ROOT, 'src'), file).split('/')[0] ?? '';
    const runtime = srcEdges.filter((edge) => !edge.typeOnly && topOf(edge.from) !== topOf(edge.to));
    const byTop = new Map<string, Set<string>>();
    for (const edge of runtime) {
      if (!byTop.has(topOf(edge.from))) byTop.set(topOf(edge.from), new Set());
      byTop.get(topOf(edge.from))!.add(topOf(edge.to));
    }
    const found = cycles(new Set(srcFiles.map(topOf)), (top) => byTop.get(top) ?? []);
    const explain = found.map((component) =>
      runtime
        .filter((edge) => component.includes(topOf(edge.from)) && component.includes(topOf(edge.to)))
        .map((edge) => `${short(edge.from)} -> ${short(edge.to)}`),
    );
    expect(explain).toEqual([]);
  });

  it(`keeps every folder of src/ within ${MAX_FILES_PER_FOLDER} files and ${MAX_LINES_PER_FOLDER} lines`, () => {
    const folders = new Map<string, { files: number; lines: number }>();
    for (const file of srcFiles) {
      const folder = short(dirname(file));
      const entry = folders.get(folder) ?? { files: 0, lines: 0 };
      entry.files += 1;
      entry.lines += readFileSync(file, 'utf8').split('\n').length - 1;
      folders.set(folder, entry);
    }
    const crowded = [...folders]
      .filter(([, size]) => size.files > MAX_FILES_PER_FOLDER || size.lines > MAX_LINES_PER_FOLDER)
      .map(([folder, size]) => `${folder}: ${size.files} files, ${size.lines} lines`);
    expect(crowded).toEqual([]);
  });

  it('keeps bench/, scripts/ and test/ from importing one another', () => {
    const tools = ['bench', 'scripts', 'test'];
    const toolOf = (path: string): string | undefined =>
      tools.find((tool) => short(path).startsWith(`${tool}/`));
    const crossings = tools
      .flatMap((tool) => sourceFiles(join(ROOT, tool)))
      .flatMap(importsOf)
      .filter((edge) => {
        const target = toolOf(edge.to);
        return target !== undefined && target !== toolOf(edge.from);
      })
      .map((edge) => `${short(edge.from)} -> ${short(edge.to)}`);
    expect(crossings).toEqual([]);
  });
});
