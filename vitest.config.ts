import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';
import { HEAVY_TESTS, TEAM_TYPE_TESTS, TEST_FILES } from './test/suites.ts';

/** What both suites share: `npm test`'s (this file) and `npm run test:heavy`'s (`vitest.heavy.config.ts`). */
export const SUITE_OPTIONS = {
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
} satisfies NonNullable<ViteUserConfig['test']>;

/**
 * `npm run test:unit`, the suite of `npm test`: every test file but the heavy ones (`test/suites.ts` names
 * them) and the team-type steps (each the last step of its command).
 */
export default defineConfig({
  test: {
    ...SUITE_OPTIONS,
    // The bench's and the scripts' own tests sit beside them (`bench/test/`, `scripts/test/`): tools apart.
    include: TEST_FILES,
    exclude: [...configDefaults.exclude, ...HEAVY_TESTS, ...Object.values(TEAM_TYPE_TESTS)],
  },
});
