import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The bench's and the scripts' own tests sit beside them (`bench/test/`, `scripts/test/`): tools apart.
    include: ['test/**/*.test.ts', 'bench/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The machines have two cores; end-to-end suites start real servers.
    maxWorkers: 2,
  },
});
