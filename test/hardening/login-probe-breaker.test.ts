/**
 * Logins and the breaker where the anonymous source has no vote (`UPSTREAM_BREAKER_MIN_SOURCES` 2, the
 * default): logins are out of the window; where they share the reads' origin they never take the half-open
 * probe (a read by an accepted user decides), so failing logins cannot keep the breaker open once reads
 * recovered; an origin that only logins reach never opens (docs/design.md, the breaker's cost).
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

/**
 * A fake client whose every call succeeds while `health.ok`, else fails as the upstream being down; logins
 * fail so while `health.loginsFail` too (a login servlet still sick after the reads recovered).
 */
function fakeClient(health: { ok: boolean; loginsFail?: boolean }) {
  const calls: WireOperation[] = [];
  const run = <T>(operation: WireOperation, value: unknown): Promise<T> => {
    calls.push(operation);
    return health.ok && !(health.loginsFail === true && operation.startsWith('login'))
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

describe('logins where reads share their origin (MIN_SOURCES 2)', () => {
  const sameOrigin = { originOf: () => 'http://reads' };

  it('should refuse a login where it would be the half-open probe, and leave the probe to a read', async () => {
    const health = { ok: true };
    const fake = fakeClient(health);
    const c = guarded(fake.client, sameOrigin);
    await openThenDue(c, health);
    health.ok = true;
    const before = fake.calls.length;
    expect(await settle(c.loginJson('anyone', 'x'))).toBe('circuit_open');
    expect(await settle(c.loginForm('anyone', 'x'))).toBe('circuit_open');
    expect(fake.calls.length).toBe(before);
    // A read by an accepted user is the probe: it closes the breaker, and logins pass again.
    expect(await settle(c.getAll(users[0]!, 'X', [], 10, 0))).toBe('ok');
    expect(c.breakerStates()['http://reads']).toBe('closed');
    expect(await settle(c.loginJson('anyone', 'x'))).toBe('ok');
  });

  it('should close after an outage once reads recover, however many logins keep failing', async () => {
    const health = { ok: true, loginsFail: true };
    const c = guarded(fakeClient(health).client, sameOrigin);
    await openThenDue(c, health);
    health.ok = true;
    // Logins of a login servlet still sick, all through the half-open time: none takes the probe.
    const logins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => settle(c.loginForm(`n-${i}`, 'x'))),
    );
    expect(logins.every((kind) => kind === 'circuit_open')).toBe(true);
    expect(await settle(c.getAll(users[0]!, 'X', [], 10, 0))).toBe('ok');
    expect(c.breakerStates()['http://reads']).toBe('closed');
    for (let i = 0; i < 40; i++) expect(await settle(c.loginJson(`n-${i}`, 'x'))).toBe('unavailable');
    expect(c.breakerStates()['http://reads']).toBe('closed');
    expect(await settle(c.getAll(users[1]!, 'X', [], 10, 0))).toBe('ok');
  });

  it('should let logins that arrive while a read probes wait for its decision', async () => {
    const health = { ok: true };
    const c = guarded(fakeClient(health).client, sameOrigin);
    await openThenDue(c, health);
    health.ok = true;
    const probe = settle(c.getAll(users[0]!, 'X', [], 10, 0));
    const login = settle(c.loginJson('anyone', 'x'));
    expect(await Promise.all([probe, login])).toEqual(['ok', 'ok']);
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
