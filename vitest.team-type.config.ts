/**
 * The team-type steps, each the last step of its command, each run by naming its file:
 * `npm run test:team-type` (of `npm test`) runs the object-type tests in a copy of the repository with a
 * team's type added; `npm run test:heavy` ends with the whole suite in such a copy. Never beside another
 * suite on the same cores; the copy's own runs use `vitest.config.ts` or the heavy config, which leave
 * these files out, so vitest never recurses into itself.
 */
import { defineConfig } from 'vitest/config';
import { TEAM_TYPE_TESTS } from './test/suites.ts';

export default defineConfig({
  test: {
    include: Object.values(TEAM_TYPE_TESTS),
    // The copy's runs happen inside one test: their own time budgets are in the test.
    testTimeout: 20_000,
    hookTimeout: 60_000,
    maxWorkers: 1,
  },
});
