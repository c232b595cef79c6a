/**
 * The split between `npm test` and `npm run test:heavy` (`test/suites.ts`) names files that exist: a heavy
 * file renamed without its entry would join `npm test` unnoticed, and an object-type path that moved would
 * leave the team-type step testing less than it says.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEAVY_TESTS, OBJECT_TYPE_TESTS, TEAM_TYPE_TESTS } from '../suites.ts';

describe('the test suites', () => {
  it('should name only heavy files, object-type paths and team-type steps that exist', () => {
    const named = [...HEAVY_TESTS, ...OBJECT_TYPE_TESTS, ...Object.values(TEAM_TYPE_TESTS)];
    expect(named.filter((path) => !existsSync(path))).toEqual([]);
  });

  it('should name each heavy file once', () => {
    expect(new Set(HEAVY_TESTS).size).toBe(HEAVY_TESTS.length);
  });
});
