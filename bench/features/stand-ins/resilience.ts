/**
 * Stand-in (feature `resilience`): no breakers, bulkhead, retries, call budget or deadline; every call goes
 * straight to the client.
 */
import type * as Real from '../../../src/upstream/resilience/resilience.ts';

export * from '../../../src/upstream/resilience/resilience.ts';

/** The client itself, its breakers always closed. */
export const withResilience: typeof Real.withResilience = (client) => ({
  ...client,
  breakerStates: () => ({}),
  isFailingFast: () => false,
  bulkhead: () => ({ inUse: 0, queued: 0 }),
});
