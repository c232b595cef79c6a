import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Runs the whole suite in a copy of the repository with a team's type added: its own step of `npm test`
 * (`npm run test:team-type`, `vitest.team-type.config.ts`), never a file of this run.
 */
export const TEAM_TYPE_TEST = 'test/build/team-type.test.ts';

export default defineConfig({
  test: {
    // The bench's and the scripts' own tests sit beside them (`bench/test/`, `scripts/test/`): tools apart.
    include: ['test/**/*.test.ts', 'bench/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, TEAM_TYPE_TEST],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The machines have two cores; end-to-end suites start real servers.
    maxWorkers: 2,
  },
});
