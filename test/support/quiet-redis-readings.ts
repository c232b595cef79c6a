/**
 * What a replica's Redis guard reports to its metrics (`RedisReadings`) when nothing has gone wrong yet, `up`
 * or not: the tests that make `gateway_redis_*` appear without a Redis server.
 */
import type { RedisReadings } from '../../src/observability/metrics.ts';

/** Readings with Redis `up` (or down), never full, bypassed or fallen back, nothing unshared. */
export function quietRedisReadings(up: boolean): RedisReadings {
  return {
    up: () => up,
    full: () => false,
    bypasses: () => 0,
    fallbacks: () => 0,
    unsharedRevocations: () => 0,
  };
}
