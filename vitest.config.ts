import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The machines have two cores; end-to-end suites start real servers.
    maxWorkers: 2,
  },
});
