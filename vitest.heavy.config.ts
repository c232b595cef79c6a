/**
 * `npm run test:heavy`'s suite: the files `test/suites.ts` names heavy (a real JVM, the bundle and the
 * image, Redis faults, replicas, floods, a browser, Prometheus, whole `upstream:check` runs), with the
 * settings of `npm test`'s suite. CI runs it after `npm test`.
 *
 * Two projects, one after the other: the heavy files two at a time, then those that time a victim's reads
 * beside a flood against its own quiet p95 ({@link ALONE_TESTS}) one at a time, with nothing else on the
 * machine's two cores. Beside another heavy file (an image build, a JVM) the flood and its victim shared
 * the cores with whatever that file did, and the ratio measured the neighbour as much as the gateway.
 */
import { defineConfig } from 'vitest/config';
import { SUITE_OPTIONS } from './vitest.config.ts';
import { ALONE_TESTS, HEAVY_TESTS } from './test/suites.ts';

const alone = new Set<string>(ALONE_TESTS);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...SUITE_OPTIONS,
          name: 'heavy',
          include: HEAVY_TESTS.filter((file) => !alone.has(file)),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...SUITE_OPTIONS,
          name: 'alone',
          include: [...ALONE_TESTS],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
