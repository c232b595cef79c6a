/**
 * A rate-limiter-flexible limiter in Redis behind the Redis guard, with a twin in memory that counts
 * whenever Redis does not: bypassed (its breaker open, so no wait at all), timed out, unreachable, or full.
 * rate-limiter-flexible's own `insuranceLimiter` does the same but asks Redis first on every call, so a
 * frozen Redis cost each login's dozen counter calls a command timeout each.
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisCommandKind, RedisGuard } from './redis-guard.ts';

/** The calls of a limiter the login limiter makes. */
export type CounterStore = Pick<
  RateLimiterAbstract,
  'consume' | 'get' | 'delete' | 'reward' | 'penalty' | 'block'
>;

/** `shared` through `guard`, `insurance` when Redis does not serve; an over-the-limit answer is an answer. */
export function guardedLimiter(
  shared: RateLimiterAbstract,
  insurance: RateLimiterAbstract,
  guard: RedisGuard,
): CounterStore {
  // `write`: may add to Redis's memory, so may meet a full Redis (`OOM`).
  const through = <T>(
    kind: RedisCommandKind,
    call: (limiter: RateLimiterAbstract) => Promise<T>,
  ): Promise<T> =>
    guard
      .run(() => call(shared), kind)
      .catch((error: unknown) => {
        // `consume` past the limit rejects with the counter's state: that is Redis's answer, not an outage.
        if (error instanceof RateLimiterRes) throw error;
        return call(insurance);
      });
  return {
    consume: (key, points, options) => through('write', (l) => l.consume(key, points, options)),
    get: (key, options) => through('read', (l) => l.get(key, options)),
    delete: (key, options) => through('read', (l) => l.delete(key, options)),
    reward: (key, points, options) => through('write', (l) => l.reward(key, points, options)),
    penalty: (key, points, options) => through('write', (l) => l.penalty(key, points, options)),
    block: (key, seconds, options) => through('write', (l) => l.block(key, seconds, options)),
  };
}
