/**
 * The `organizationCode` a login chooses. The upstream's organization fetch is not described, so the gateway
 * cannot ask whether the user belongs to an organization: it refuses what cannot be a code at all (an empty
 * code would widen reads beyond `ORGANIZATION_CODE`), and, when the operator lists them, codes outside
 * `ALLOWED_ORGANIZATION_CODES`. Membership itself is the upstream's to check, on the first read.
 */
import { ORGANIZATION_CODE_PATTERN } from '../config/parsers.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { badUserInput, forbidden } from '../errors/graphql-errors.ts';

/**
 * The organization of the new session: `requested`, or the gateway's default when the argument is left out.
 * @throws `BAD_USER_INPUT` (argument `organizationCode`) for an empty or malformed code, or none where the
 *   gateway has no default but a list to choose from; `FORBIDDEN` for one the gateway does not serve.
 */
export function checkOrganizationCode(
  requested: string | null | undefined,
  config: Pick<GatewayConfig, 'organizationCode' | 'allowedOrganizationCodes'>,
): string | null {
  if (requested !== null && requested !== undefined && !ORGANIZATION_CODE_PATTERN.test(requested)) {
    throw badUserInput(
      'organizationCode must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit; leave it out for the default organization.',
      'organizationCode',
    );
  }
  const chosen = requested ?? config.organizationCode ?? null;
  const allowed = config.allowedOrganizationCodes;
  if (chosen === null && allowed.length > 0) {
    // No default organization, a list to choose from: the organization comes from the login, or a session
    // would exist whose every save the upstream refuses ("missing fields: organizationCode").
    throw badUserInput(
      'organizationCode is required: this gateway has no default organization; name yours in the login.',
      'organizationCode',
    );
  }
  if (chosen !== null && allowed.length > 0 && !allowed.includes(chosen)) {
    throw forbidden(
      `This gateway does not serve organization "${chosen}"; choose one of your organizations.`,
      {
        argumentName: 'organizationCode',
      },
    );
  }
  return chosen;
}
