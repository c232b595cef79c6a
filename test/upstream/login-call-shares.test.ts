/**
 * Logins' shares of the bulkhead: every unknown client's login holds one session's share together, and
 * every known device's login another, so a flood of unknown logins that fills its share (then its queue,
 * `session_overloaded`) never keeps a known device's login from the upstream.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { isUpstreamError } from '../../src/errors/upstream-error.ts';
import type { UpstreamClient } from '../../src/upstream/client/types.ts';
import { withResilience } from '../../src/upstream/resilience/resilience.ts';
import { createRetryBudget } from '../../src/upstream/resilience/retry-budget.ts';

const unused = (): Promise<never> => Promise.reject(new Error('not called'));

/** A client whose logins of `flood` hang until `open()`; every other login answers at once. */
function hangingLogins() {
  const gate = Promise.withResolvers<undefined>();
  const client: UpstreamClient = {
    loginJson: async (username) => {
      if (username === 'flood') await gate.promise;
      return { token: `token-${username}` };
    },
    loginForm: unused,
    getMetadata: unused,
    getObject: unused,
    getAll: unused,
    save: unused,
    update: unused,
    close: () => Promise.resolve(),
  };
  return {
    client,
    open: () => {
      gate.resolve(undefined);
    },
  };
}

describe('login shares of the bulkhead', () => {
  it('should let a known device’s login through while unknown logins fill their share and queue', async () => {
    const { client, open } = hangingLogins();
    const settings = {
      ...loadConfig({}).resilience,
      maxConcurrentCallsPerSession: 2,
      maxQueuedCallsPerSession: 2,
    };
    const guarded = withResilience(client, {
      ...settings,
      originOf: () => 'upstream',
      retryBudget: createRetryBudget({ ratio: 0.2 }),
    });
    const flood = Array.from({ length: 8 }, () =>
      guarded.loginJson('flood', 'wrong', 'unknown').then(
        () => 'answered',
        (error: unknown) => (isUpstreamError(error) ? error.kind : 'other'),
      ),
    );
    // The unknown clients' share and queue are full: one more unknown login is refused at once.
    const refused = await guarded.loginJson('stranger', 'pw', 'unknown').then(
      () => 'answered',
      (error: unknown) => (isUpstreamError(error) ? error.kind : 'other'),
    );
    expect(refused).toBe('session_overloaded');
    // A known device's login has its own share.
    await expect(guarded.loginJson('victim', 'pw', 'known')).resolves.toEqual({ token: 'token-victim' });
    open();
    expect(await Promise.all(flood)).toContain('session_overloaded');
  });
});
