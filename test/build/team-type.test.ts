/**
 * A team adds its own type to schema/objects/, as the README says, and everything it can break stays green.
 * In a copy of the repository (`test/support/team-type-copy.ts`), with a type that has a reference to a demo
 * type (`Customer`), a `Float` and a `Boolean`: `check:codegen` fails and says to run `npm run codegen`; after
 * it, the drift check and both type checks pass, the new type has typed filters, and so do the tests that
 * read object types (`OBJECT_TYPE_TESTS` in `test/suites.ts`).
 *
 * The last step of `npm test` (`npm run test:team-type`), run after the suite rather than beside it on the
 * same cores. `npm run test:heavy` ends with the whole suite in such a copy (`team-type-whole-suite.test.ts`).
 */
import { globSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEAVY_TESTS, OBJECT_TYPE_TESTS } from '../suites.ts';
import { expectCodegenAndTypeChecks, expectCopySuitePasses } from '../support/team-type-copy.ts';
import { useTeamTypeCopy } from '../support/use-team-type-copy.ts';

/** Generous, as the machine may be busy. */
const SUITE_BUDGET_MILLIS = 15 * 60_000;

const copy = useTeamTypeCopy();

/** The object-type tests of `npm test`'s suite, as the copy holds them. */
function objectTypeTestFiles(): string[] {
  const heavy = new Set<string>(HEAVY_TESTS);
  return OBJECT_TYPE_TESTS.flatMap((path) =>
    path.endsWith('.test.ts') ? [path] : globSync(`${path}/**/*.test.ts`, { cwd: copy.dir }),
  ).filter((file) => !heavy.has(file));
}

describe('a team adds a type to schema/objects/', () => {
  it('should be told by check:codegen to run npm run codegen', async () => {
    const { code, output } = await copy.run(['scripts/check-codegen.ts']);
    expect(code).not.toBe(0);
    expect(output).toContain('src/generated/resolvers-types.ts');
    expect(output).toContain('run `npm run codegen`');
  });

  it(
    'should be green after npm run codegen: drift check, type checks and the tests that read object types',
    async () => {
      await expectCodegenAndTypeChecks(copy);
      const files = objectTypeTestFiles();
      expect(files.length).toBeGreaterThan(10);
      await expectCopySuitePasses(copy, files, files.length, SUITE_BUDGET_MILLIS);
    },
    SUITE_BUDGET_MILLIS + 300_000,
  );
});
