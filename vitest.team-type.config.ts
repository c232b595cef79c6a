/**
 * `npm run test:team-type`, the last step of `npm test`: only test/build/team-type.test.ts, which adds a
 * team's type to a copy of the repository and runs the whole unit suite there. A step of its own, after the
 * suite, so that the copy's suite never runs beside this one on the same cores; the copy runs with
 * `vitest.config.ts`, which leaves this test out, so vitest never recurses into itself.
 */
import { defineConfig } from 'vitest/config';
import { TEAM_TYPE_TEST } from './vitest.config.ts';

export default defineConfig({
  test: {
    include: [TEAM_TYPE_TEST],
    // The copy's whole suite runs inside one test: its own time budget is in the test.
    testTimeout: 20_000,
    hookTimeout: 60_000,
    maxWorkers: 1,
  },
});
