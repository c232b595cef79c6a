/** The generic API's `FilterInput` as upstream criteria. */
import type { GatewayServices } from '../graphql/context.ts';
import type { FilterCondition } from '../filters/compile-criteria.ts';
import type { FilterInput, InputMaybe } from '../generated/resolvers-types.ts';
import type { Criterion } from '../upstream/client/types.ts';
import { compileFilter } from './compile-filter.ts';

/**
 * The upstream criteria of a `FilterInput` (none for a missing filter): every operator compiled to the
 * upstream's `matches`, `matches` itself checked by the pattern guard. Throws `BAD_USER_INPUT` (argument
 * `filter`) for a criterion the gateway refuses.
 */
export function toCriteria(
  filter: InputMaybe<FilterInput>,
  services: Pick<GatewayServices, 'config' | 'patternGuard'>,
  objectName: string,
): Promise<Criterion[]> {
  const conditions = (filter?.criteria ?? []).map((c, i): FilterCondition => {
    const at = `filter.criteria[${i}]`;
    return {
      fieldName: c.fieldName,
      // An explicit `null` is the default, as it was when `operator` was a String.
      operator: c.operator ?? 'matches',
      value: c.value,
      values: c.values,
      caseInsensitive: c.caseInsensitive,
      at: { value: `${at}.value`, values: `${at}.values`, caseInsensitive: `${at}.caseInsensitive` },
    };
  });
  return compileFilter(conditions, services, 'filter', objectName);
}
