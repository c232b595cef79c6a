/**
 * `npm run test:heavy`'s suite: the files `test/suites.ts` names heavy (a real JVM, the bundle and the
 * image, Redis faults, replicas, floods, a browser, Prometheus, whole `upstream:check` runs), with the
 * settings of `npm test`'s suite. CI runs it after `npm test`.
 */
import { defineConfig } from 'vitest/config';
import { SUITE_OPTIONS } from './vitest.config.ts';
import { HEAVY_TESTS } from './test/suites.ts';

export default defineConfig({ test: { ...SUITE_OPTIONS, include: [...HEAVY_TESTS] } });
