/**
 * The resolvers' door to the filter compiler: the gateway's settings and pattern guard in, `BAD_USER_INPUT`
 * out for a filter it refuses. Used by the generic `filter` and the typed `where`.
 */
import type { GatewayServices, GraphQLContext } from '../graphql/context.ts';
import { compileCriteria, type FilterCondition } from '../filters/compile-criteria.ts';
import { FilterError } from '../errors/filter-error.ts';
import type { Criterion } from '../upstream/client/types.ts';
import { badUserInput, patternGuardBusy } from '../errors/graphql-errors.ts';
import { userKeyOf } from '../auth/user-key.ts';

/**
 * The upstream criteria of `conditions`, which came in the field argument `argumentName`. Throws
 * `BAD_USER_INPUT` naming that argument when the compiler or the pattern guard refuses one; nothing is
 * sent upstream then.
 */
export async function compileFilter(
  conditions: readonly FilterCondition[],
  services: Pick<GatewayServices, 'config' | 'patternGuard'>,
  argumentName: string,
): Promise<Criterion[]> {
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
