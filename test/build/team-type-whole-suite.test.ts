/**
 * The whole suite, both commands' files, in a copy of the repository with a team's type added
 * (`test/support/team-type-copy.ts`): after `npm run codegen` the drift check, both type checks and every
 * test file pass, none chosen. The last step of `npm run test:heavy`; `npm test` runs the tests that read
 * object types only (`team-type.test.ts`).
 */
import { globSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEAVY_TESTS, TEAM_TYPE_TESTS, TEST_FILES } from '../suites.ts';
import { expectCodegenAndTypeChecks, expectCopySuitePasses } from '../support/team-type-copy.ts';
import { useTeamTypeCopy } from '../support/use-team-type-copy.ts';

/** Each of the copy's two suites: generous, as the machine may be busy; CI's run allows 90 minutes in all. */
const SUITE_BUDGET_MILLIS = 40 * 60_000;

const copy = useTeamTypeCopy();

describe('a team adds a type to schema/objects/ (the whole suite)', () => {
  it(
    'should be green after npm run codegen: drift check, type checks, and both suites whole',
    async () => {
      await expectCodegenAndTypeChecks(copy);
      const teamType = new Set<string>(Object.values(TEAM_TYPE_TESTS));
      const all = TEST_FILES.flatMap((pattern) => globSync(pattern, { cwd: copy.dir })).filter(
        (file) => !teamType.has(file),
      );
      const heavy = all.filter((file) => (HEAVY_TESTS as readonly string[]).includes(file));
      expect(heavy).toHaveLength(HEAVY_TESTS.length);
      await expectCopySuitePasses(copy, [], all.length - heavy.length, SUITE_BUDGET_MILLIS);
      await expectCopySuitePasses(
        copy,
        ['--config', 'vitest.heavy.config.ts'],
        heavy.length,
        SUITE_BUDGET_MILLIS,
      );
    },
    2 * SUITE_BUDGET_MILLIS + 300_000,
  );
});
