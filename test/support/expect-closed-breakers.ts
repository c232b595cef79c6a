/**
 * Holds a gateway to having opened none of its upstream breakers: what the tests of dialect mismatches and
 * attacks check after them, since a mismatch (the gateway's own fault) or a caller's attack counted as the
 * upstream's ill health would open a breaker and refuse everyone's reads.
 */
import { expect } from 'vitest';
import type { TestGateway } from './gateway-harness.ts';

export function expectClosedBreakers(gw: Pick<TestGateway, 'gateway'>): void {
  expect(Object.values(gw.gateway.upstream.breakerStates())).not.toContain('open');
}
