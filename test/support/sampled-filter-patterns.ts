/**
 * Patterns the gateway compiles for sampled filter conditions, for the tests that hold them to the real Java
 * engine (`test/filters/find-anchoring-java.test.ts`, `matches-case-java.test.ts`): `numRuns` conditions on a
 * field `f` (any text operator, `in` on `value` and `other`, case-sensitive or not), each with the pattern sent
 * for `matchesMode` (`''` where none is sent) and the two texts it was built from.
 */
import fc from 'fast-check';
import { compileCriteria, type FilterOperator } from '../../src/filters/compile-criteria.ts';
import type { MatchesMode } from '../../src/upstream/client/types.ts';
import { defaultPatternGuard } from './pattern-guard.ts';

const operator = fc.constantFrom<FilterOperator>('equals', 'in', 'contains', 'startsWith', 'endsWith');

export async function sampledFilterPatterns(
  text: fc.Arbitrary<string>,
  seed: number,
  matchesMode: MatchesMode,
  numRuns = 300,
): Promise<{ pattern: string; value: string; other: string }[]> {
  const guard = defaultPatternGuard();
  const cases = fc.sample(fc.tuple(operator, text, text, fc.boolean()), { numRuns, seed });
  const out: { pattern: string; value: string; other: string }[] = [];
  for (const [op, value, other, caseInsensitive] of cases) {
    const [criterion] = await compileCriteria(
      [
        {
          fieldName: 'f',
          operator: op,
          caseInsensitive,
          ...(op === 'in' ? { values: [value, other] } : { value }),
          at: { value: 'v', values: 'v', caseInsensitive: 'c' },
        },
      ],
      { matchesMode, guard, argumentName: 'filter' },
    );
    out.push({ pattern: criterion?.value ?? '', value, other });
  }
  return out;
}
