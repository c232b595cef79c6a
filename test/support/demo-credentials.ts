/**
 * Upstream credentials of a caller of the demo application (`applicationCode` `demo`, organization `acme`
 * unless named), as the emulator's tenants have it: what the unit tests of the upstream client, its wrappers
 * and the loaders pass per call. Each test names only what it is about (who, which token, which organization)
 * and adds the rest (`sessionCookie`, `userKey`) with a spread.
 */
import type { UpstreamCredentials } from '../../src/upstream/client/types.ts';

export function demoCredentials(
  username: string,
  apiToken: string,
  organizationCode = 'acme',
): UpstreamCredentials & { organizationCode: string } {
  return { username, apiToken, applicationCode: 'demo', organizationCode };
}
