/**
 * Mistakes in the typed object SDL, reported at start-up with the file, the line and the fix: a schema that
 * cannot be served as written stops the gateway instead of serving something else.
 */
import { getLocation, type ASTNode } from 'graphql';
import type { SourceLocation } from './object-type-spec.ts';

/** One mistake: where, what, and how to fix it. */
export interface SchemaProblem extends SourceLocation {
  /** What is wrong, naming the type and field. */
  problem: string;
  /** What to write instead. */
  fix: string;
}

/** Where a node was written; its `Source` carries the file name it was parsed with. */
export function locate(node: ASTNode): SourceLocation {
  const loc = node.loc;
  if (loc === undefined) return { file: '<unknown>', line: 0, column: 0 };
  const { line, column } = getLocation(loc.source, loc.start);
  return { file: loc.source.name, line, column };
}

/** A problem located at `node`. */
export function problemAt(node: ASTNode, problem: string, fix: string): SchemaProblem {
  return { ...locate(node), problem, fix };
}

/** `file:line:column problem` and the fix on the next line, one problem after the other. */
function formatProblems(problems: readonly SchemaProblem[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.problem}\n  Fix: ${p.fix}`);
  return `Invalid typed object schema (${count}):\n${lines.join('\n')}`;
}

/** Thrown by `buildTypedApi` when the SDL has mistakes; `message` lists them all. */
export class ObjectSchemaError extends Error {
  /** Every mistake found, in file order. */
  readonly problems: readonly SchemaProblem[];

  constructor(problems: readonly SchemaProblem[]) {
    super(formatProblems(problems));
    this.name = 'ObjectSchemaError';
    this.problems = problems;
  }
}
