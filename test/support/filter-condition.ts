/**
 * The random filter condition of the differential filter tests (`test/filters/find-anchoring.test.ts`,
 * `matches-case.test.ts`): on `text` or `nested.text`, every text operator on `operand`, `in` on up to four
 * operands, and `matches` on `pattern`.
 */
import fc from 'fast-check';
import type { FilterOperator } from '../../src/filters/compile-criteria.ts';

export function filterCondition(operand: fc.Arbitrary<string>, pattern: fc.Arbitrary<string>) {
  return fc.oneof(
    fc.record({
      fieldName: fc.constantFrom('text', 'nested.text'),
      operator: fc.constantFrom<FilterOperator>('equals', 'contains', 'startsWith', 'endsWith'),
      value: operand,
      caseInsensitive: fc.boolean(),
    }),
    fc.record({
      fieldName: fc.constantFrom('text', 'nested.text'),
      operator: fc.constant<FilterOperator>('in'),
      values: fc.array(operand, { maxLength: 4 }),
      caseInsensitive: fc.boolean(),
    }),
    fc.record({
      fieldName: fc.constantFrom('text', 'nested.text'),
      operator: fc.constant<FilterOperator>('matches'),
      value: pattern,
    }),
  );
}
