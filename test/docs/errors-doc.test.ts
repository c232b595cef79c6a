/**
 * The README's error tables against the catalogue (`src/errors/error-codes.ts`): every code the gateway
 * answers is documented, and every documented code is one the gateway (or Apollo Server) answers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors/error-codes.ts';

/** Codes Apollo Server answers itself, which the README documents beside ours. */
const APOLLO_CODES = ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED'];

/** The codes in the first column of the tables of a README section. */
function documentedCodes(readme: string, heading: string): string[] {
  const section = readme.slice(readme.indexOf(`\n## ${heading}\n`));
  const body = section.slice(0, section.indexOf('\n## ', 1));
  return body
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)])
    .map((match) => match[1] ?? '');
}

describe("README's error codes", () => {
  const readme = readFileSync('README.md', 'utf8');
  const documented = new Set([
    ...documentedCodes(readme, 'Errors'),
    ...documentedCodes(readme, 'Trusted documents'),
  ]);

  it('should document every code of the catalogue, and no other', () => {
    expect([...documented].sort()).toEqual([...Object.values(ErrorCode), ...APOLLO_CODES].sort());
  });
});
