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
    // Ends every child process the tests started, whatever happened to the worker that started it.
    globalSetup: ['test/support/global-setup.ts'],
    // Time limits only catch a hang: a test that passes never waits for them, so they are generous enough
    // for a machine loaded far beyond its cores (a load of 12-22 on 2 cores made end-to-end files 10-20
    // times slower). Speed is measured in bench/, never here.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    expect: { poll: { timeout: 60_000 } },
    // The machines have two cores; end-to-end suites start real servers.
    maxWorkers: 2,
  },
});
