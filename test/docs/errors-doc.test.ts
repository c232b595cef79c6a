/**
 * The error tables of `docs/errors.md` and `docs/trusted-documents.md` against the catalogue
 * (`src/errors/error-codes.ts`): every code the gateway answers is documented, and every documented code is
 * one the gateway (or Apollo Server) answers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors/error-codes.ts';

/** Codes Apollo Server answers itself, which the documents list beside ours. */
const APOLLO_CODES = ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED'];

/** The codes in the first column of the tables of a document. */
function documentedCodes(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)])
    .map((match) => match[1] ?? '');
}

describe('the documented error codes', () => {
  const documented = new Set([
    ...documentedCodes('docs/errors.md'),
    ...documentedCodes('docs/trusted-documents.md'),
  ]);

  it('should document every code of the catalogue, and no other', () => {
    expect([...documented].sort()).toEqual([...Object.values(ErrorCode), ...APOLLO_CODES].sort());
  });
});
