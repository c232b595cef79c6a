/**
 * The resolvers' door to the filter compiler: the gateway's settings and pattern guard in, `BAD_USER_INPUT`
 * out for a filter it refuses. Used by the generic `filter` and the typed `where`.
 */
import type { GatewayServices, GraphQLContext } from '../graphql/context.ts';
import { compileCriteria, type FilterCondition } from '../filters/compile-criteria.ts';
import { FilterError } from '../errors/filter-error.ts';
import type { Criterion } from '../upstream/client/types.ts';
import { badUserInput, patternGuardBusy, unfilterableField } from '../errors/graphql-errors.ts';
import { userKeyOf } from '../auth/user-key.ts';

/**
 * Refuses a condition on a field of `objectName` listed in `UPSTREAM_UNFILTERABLE_FIELDS`: the upstream's
 * `matches` never sees its values (a MongoDB `$regex` on a number, boolean, date or `{"$oid"}`), so it would
 * answer nothing, which no check of the answer can tell from "no record matches".
 */
function refuseUnfilterable(
  conditions: readonly FilterCondition[],
  unfilterable: readonly string[],
  objectName: string,
  argumentName: string,
): void {
  if (unfilterable.length === 0) return;
  for (const condition of conditions) {
    const field = `${objectName}.${condition.fieldName}`;
    if (!unfilterable.includes(field)) continue;
    const at = condition.operator === 'in' ? condition.at.values : condition.at.value;
    throw unfilterableField(
      `"${at}": the upstream cannot filter ${field} (its \`matches\` does not see this field's values, as ` +
        'npm run upstream:check found): sent, it would answer nothing. It is listed in ' +
        'UPSTREAM_UNFILTERABLE_FIELDS; remove it from that setting once the upstream can filter it.',
      argumentName,
      field,
    );
  }
}

/**
 * The upstream criteria of `conditions` on records of `objectName`, which came in the field argument
 * `argumentName`. Throws `BAD_USER_INPUT` naming that argument when the compiler or the pattern guard refuses
 * one, or when one filters a field of `UPSTREAM_UNFILTERABLE_FIELDS`; nothing is sent upstream then.
 */
export async function compileFilter(
  conditions: readonly FilterCondition[],
  services: Pick<GatewayServices, 'config' | 'patternGuard'>,
  argumentName: string,
  objectName: string,
): Promise<Criterion[]> {
  refuseUnfilterable(conditions, services.config.unfilterableFields, objectName, argumentName);
  try {
    return await compileCriteria(conditions, {
      matchesMode: services.config.matchesMode,
      guard: services.patternGuard,
      argumentName,
    });
  } catch (error) {
    if (error instanceof FilterError && error.busy) {
      // The guard's own capacity, not the caller's pattern: blamed on the gateway, worth a retry.
      throw patternGuardBusy(error.message);
    }
    if (error instanceof FilterError) throw badUserInput(error.message, error.argumentName);
    throw error;
  }
}

/**
 * What a filter of this request compiles with: the gateway's settings, and its pattern guard with each new
 * pattern's analysis taken from the share of the session's user (`userKeyOf`: the account, whichever name
 * it logged in with; anonymous: the smallest share), so that one account looping on new patterns waits for
 * itself.
 */
export function filterServicesOf(ctx: GraphQLContext): Pick<GatewayServices, 'config' | 'patternGuard'> {
  const { session, services } = ctx;
  const caller = session === null ? undefined : userKeyOf(session);
  return {
    config: services.config,
    patternGuard: { check: (pattern) => services.patternGuard.check(pattern, caller) },
  };
}
