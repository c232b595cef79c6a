/**
 * Logins and the breaker where the anonymous source has no vote (`UPSTREAM_BREAKER_MIN_SOURCES` 2, the
 * default): logins are out of the window, but a login that is the half-open probe still decides, and an
 * origin that only logins reach never opens (docs/design.md, the breaker's cost).
 */
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { withResilience, type ResilienceOptions } from '../../src/upstream/resilience/resilience.ts';
import { createRetryBudget } from '../../src/upstream/resilience/retry-budget.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { UpstreamClient, UpstreamCredentials } from '../../src/upstream/client/types.ts';
import type { WireOperation } from '../../src/upstream/client/wire.ts';

const PAGE = { records: [], totalCount: 0 };
const TOKEN = { status: 'success', token: 't' };
const users = ['u1', 'u2'].map((username): UpstreamCredentials => ({
  username,
  apiToken: `t-${username}`,
  applicationCode: 'a',
}));

/** A fake client whose every call succeeds while `health.ok`, else fails as the upstream being down. */
function fakeClient(health: { ok: boolean }) {
  const calls: WireOperation[] = [];
  const run = <T>(operation: WireOperation, value: unknown): Promise<T> => {
    calls.push(operation);
    return health.ok
      ? Promise.resolve(value as T)
      : Promise.reject(new UpstreamError('unavailable', 'scripted', { operation }));
  };
  const client: UpstreamClient = {
    loginJson: () => run('loginJson', TOKEN),
    loginForm: () => run('loginForm', TOKEN),
    getMetadata: () => run('metadata', {}),
    getObject: () => run('getObject', null),
    getAll: () => run('getAll', PAGE),
    save: () => run('save', {}),
    update: () => run('update', {}),
    close: () => Promise.resolve(),
  };
  return { client, calls };
}

function guarded(client: UpstreamClient, options: Partial<ResilienceOptions> = {}) {
  return withResilience(client, {
    ...loadConfig({}).resilience,
    originOf: (operation) => (operation.startsWith('login') ? 'http://logins' : 'http://reads'),
    retryBudget: createRetryBudget({ ratio: 0.2, minRetriesPerWindow: 100 }),
    readRetries: 0,
    breakerMinimumCalls: 4,
    breakerHalfOpenAfterMillis: 50,
    ...options,
  });
}

const settle = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof UpstreamError ? error.kind : 'other'),
  );

/** Opens the reads' breaker by two users' failures, then waits until a probe is due. */
async function openThenDue(c: ReturnType<typeof guarded>, health: { ok: boolean }) {
  health.ok = false;
  for (let i = 0; i < 4; i++) await settle(c.getAll(users[i % 2]!, 'X', [], 10, 0));
  expect(c.breakerStates()['http://reads']).toBe('open');
  await new Promise((resolve) => setTimeout(resolve, 80));
}

describe('a login as the half-open probe (MIN_SOURCES 2)', () => {
  // Logins share the reads' origin here, so a login can be the probe.
  const sameOrigin = { originOf: () => 'http://reads' };

  it('should close the breaker when the login probe succeeds', async () => {
    const health = { ok: true };
    const c = guarded(fakeClient(health).client, sameOrigin);
    await openThenDue(c, health);
    health.ok = true;
    expect(await settle(c.loginJson('anyone', 'x'))).toBe('ok');
    expect(c.breakerStates()['http://reads']).toBe('closed');
    expect(await settle(c.getAll(users[0]!, 'X', [], 10, 0))).toBe('ok');
  });

  it('should reopen the breaker when the login probe finds the upstream still down', async () => {
    const health = { ok: true };
    const fake = fakeClient(health);
    const c = guarded(fake.client, sameOrigin);
    await openThenDue(c, health);
    expect(await settle(c.loginForm('anyone', 'x'))).toBe('unavailable');
    expect(c.breakerStates()['http://reads']).toBe('open');
    const before = fake.calls.length;
    expect(await settle(c.getAll(users[0]!, 'X', [], 10, 0))).toBe('circuit_open');
    expect(fake.calls.length).toBe(before);
  });
});

describe('an origin only logins reach (MIN_SOURCES 2)', () => {
  it('should never open, however many logins fail, and leave the reads origin alone', async () => {
    const health = { ok: false };
    const fake = fakeClient(health);
    const c = guarded(fake.client);
    for (let i = 0; i < 40; i++) expect(await settle(c.loginJson(`n-${i}`, 'x'))).toBe('unavailable');
    // Every login reached the upstream: none was refused fast.
    expect(fake.calls.length).toBe(40);
    expect(c.breakerStates()['http://logins']).toBe('closed');
    expect(c.breakerStates()['http://reads']).toBeUndefined();
  });

  it('should open with MIN_SOURCES 1, as documented', async () => {
    const health = { ok: false };
    const c = guarded(fakeClient(health).client, { breakerMinimumSources: 1 });
    for (let i = 0; i < 10; i++) await settle(c.loginJson(`n-${i}`, 'x'));
    expect(c.breakerStates()['http://logins']).toBe('open');
  });
});
