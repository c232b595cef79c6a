/**
 * The resilience layer around the upstream client, against a scripted fake client: breaker per origin,
 * bulkhead, retries within the budget, writes never retried, the caller's deadline.
 */
import { describe, expect, it } from 'vitest';
import { UpstreamError, type UpstreamErrorKind } from '../../src/errors/upstream-error.ts';
import { withResilience, type ResilienceOptions } from '../../src/upstream/resilience/resilience.ts';
import { createRetryBudget } from '../../src/upstream/resilience/retry-budget.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { UpstreamClient, UpstreamCredentials } from '../../src/upstream/client/types.ts';
import type { WireOperation } from '../../src/upstream/client/wire.ts';

const DEFAULT_SETTINGS = loadConfig({}).resilience;
const CREDENTIALS: UpstreamCredentials = { username: 'u', apiToken: 't', applicationCode: 'a' };
const PAGE = { records: [], totalCount: 0 };

/** A fake client: `script` decides each call's fate; `calls` records the operations that reached it. */
function fakeClient(script: (operation: WireOperation, n: number) => Promise<unknown>) {
  const calls: WireOperation[] = [];
  const run = <T>(operation: WireOperation): Promise<T> => {
    calls.push(operation);
    return script(operation, calls.length) as Promise<T>;
  };
  const client: UpstreamClient = {
    loginJson: () => run('loginJson'),
    loginForm: () => run('loginForm'),
    getMetadata: () => run('metadata'),
    getObject: () => run('getObject'),
    getAll: () => run('getAll'),
    save: () => run('save'),
    update: () => run('update'),
    close: () => Promise.resolve(),
  };
  return { client, calls };
}

/** A fake client whose calls all wait until the test releases them (each answers an empty page). */
function heldClient() {
  const releases: (() => void)[] = [];
  const fake = fakeClient(
    () =>
      new Promise((resolve) =>
        releases.push(() => {
          resolve(PAGE);
        }),
      ),
  );
  return {
    fake,
    /** How many calls are waiting. */
    held: () => releases.length,
    /** Answers every waiting call. */
    releaseAll: () => {
      releases.splice(0).forEach((release) => {
        release();
      });
    },
  };
}

const fail = (kind: UpstreamErrorKind, operation = 'getAll') =>
  Promise.reject(new UpstreamError(kind, 'scripted', { operation }));

function guarded(client: UpstreamClient, options: Partial<ResilienceOptions> = {}) {
  return withResilience(client, {
    // The settings as a user gets them by default.
    ...DEFAULT_SETTINGS,
    originOf: (operation) => (operation === 'save' ? 'http://writes' : 'http://reads'),
    // Budget generous unless a test says otherwise.
    retryBudget: createRetryBudget({ ratio: 0.2, minRetriesPerWindow: 100 }),
    ...options,
  });
}

const getAll = (c: UpstreamClient) => c.getAll(CREDENTIALS, 'X', [], 10, 0);
const kindOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof UpstreamError ? error.kind : 'other';
  }
};

describe('circuit breaker', () => {
  it('should fail fast without calling the upstream once most calls of the window failed, per origin', async () => {
    const fake = fakeClient((operation) =>
      operation === 'save' ? Promise.resolve({}) : fail('unavailable'),
    );
    const c = guarded(fake.client, { breakerMinimumCalls: 3, breakerMinimumSources: 1, readRetries: 0 });
    for (let i = 0; i < 3; i++) expect(await kindOf(getAll(c))).toBe('unavailable');
    expect(c.breakerStates()).toEqual({ 'http://reads': 'open' });
    expect(c.isFailingFast()).toBe(true);
    const before = fake.calls.length;
    expect(await kindOf(getAll(c))).toBe('circuit_open');
    expect(fake.calls.length).toBe(before);
    // Another origin is not affected.
    expect(await kindOf(c.save(CREDENTIALS, 'X', {}))).toBe('ok');
  });

  it('should count an upstream "status: error" answer as a healthy upstream', async () => {
    const fake = fakeClient(() => fail('service'));
    const c = guarded(fake.client, { breakerMinimumCalls: 2, readRetries: 0 });
    for (let i = 0; i < 5; i++) expect(await kindOf(getAll(c))).toBe('service');
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
  });

  it('should let one probe through after the open period and close on its success', async () => {
    let healthy = false;
    const fake = fakeClient(() => (healthy ? Promise.resolve(PAGE) : fail('timeout')));
    const c = guarded(fake.client, {
      breakerMinimumCalls: 2,
      breakerMinimumSources: 1,
      readRetries: 0,
      breakerHalfOpenAfterMillis: 50,
    });
    await kindOf(getAll(c));
    await kindOf(getAll(c));
    expect(await kindOf(getAll(c))).toBe('circuit_open');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(c.isFailingFast()).toBe(false);
    healthy = true;
    expect(await kindOf(getAll(c))).toBe('ok');
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
  });
});

describe('circuit breaker and blame', () => {
  it.each([
    'invalid_input',
    'rejected_input',
    'forbidden',
    'unauthenticated',
    'not_found',
    'service',
    'request_rejected',
    'internal',
  ] as const)('should never open on %s failures, however many', async (kind) => {
    const fake = fakeClient(() => fail(kind));
    const c = guarded(fake.client, { breakerMinimumCalls: 5, readRetries: 0 });
    for (let i = 0; i < 50; i++) expect(await kindOf(getAll(c))).toBe(kind);
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
    expect(c.isFailingFast()).toBe(false);
  });

  it('should count a write whose outcome is unknown as ill health', async () => {
    const fake = fakeClient(() => fail('outcome_unknown', 'save'));
    const c = guarded(fake.client, { breakerMinimumCalls: 3, breakerMinimumSources: 1 });
    for (let i = 0; i < 3; i++) expect(await kindOf(c.save(CREDENTIALS, 'X', {}))).toBe('outcome_unknown');
    expect(c.breakerStates()).toEqual({ 'http://writes': 'open' });
  });

  it('should stay closed while sick answers are a minority of the window', async () => {
    const fake = fakeClient((_op, n) => (n % 3 === 0 ? fail('timeout') : Promise.resolve(PAGE)));
    const c = guarded(fake.client, { breakerMinimumCalls: 5, readRetries: 0 });
    for (let i = 0; i < 60; i++) await kindOf(getAll(c));
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
  });

  it('should not open below the minimum number of calls in the window', async () => {
    const fake = fakeClient(() => fail('unavailable'));
    const c = guarded(fake.client, { breakerMinimumCalls: 20, breakerMinimumSources: 1, readRetries: 0 });
    for (let i = 0; i < 19; i++) await kindOf(getAll(c));
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
    await kindOf(getAll(c));
    expect(c.breakerStates()).toEqual({ 'http://reads': 'open' });
  });
});

describe('a breaker one tenant cannot open', () => {
  const users = ['u1', 'u2', 'u3'].map((username): UpstreamCredentials => ({
    username,
    apiToken: `t-${username}`,
    applicationCode: 'a',
  }));
  const readAs = (c: UpstreamClient, who: UpstreamCredentials) => c.getAll(who, 'X', [], 10, 0);

  it('should stay closed while one user’s calls fail and the others’ succeed, however many', async () => {
    // The upstream fails only u1's calls (its input, say), and answers everyone else.
    const fake = fakeClient(() => Promise.resolve(PAGE));
    const failingFor = new Set(['t-u1']);
    const client: UpstreamClient = {
      ...fake.client,
      getAll: (credentials, ...rest) =>
        failingFor.has(credentials.apiToken) ? fail('unavailable') : fake.client.getAll(credentials, ...rest),
    };
    const c = guarded(client, { breakerMinimumCalls: 5, readRetries: 0 });
    for (let i = 0; i < 60; i++) expect(await kindOf(readAs(c, users[0]!))).toBe('unavailable');
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
    expect(await kindOf(readAs(c, users[1]!))).toBe('ok');
  });

  it('should open when the calls of two users fail', async () => {
    const fake = fakeClient(() => fail('unavailable'));
    const c = guarded(fake.client, { breakerMinimumCalls: 5, readRetries: 0 });
    for (let i = 0; i < 10; i++) await kindOf(readAs(c, users[0]!));
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
    await kindOf(readAs(c, users[1]!));
    expect(c.breakerStates()).toEqual({ 'http://reads': 'open' });
    expect(await kindOf(readAs(c, users[2]!))).toBe('circuit_open');
  });

  it('should count one user logged in twice as one source', async () => {
    const fake = fakeClient(() => fail('unavailable'));
    const c = guarded(fake.client, { breakerMinimumCalls: 5, readRetries: 0 });
    const again: UpstreamCredentials = { ...users[0]!, apiToken: 'second-login' };
    for (let i = 0; i < 10; i++) await kindOf(readAs(c, i % 2 === 0 ? users[0]! : again));
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
  });

  it('should count all logins as one source, never by the username typed', async () => {
    const fake = fakeClient((operation) =>
      operation === 'loginJson' ? fail('unavailable') : Promise.resolve(PAGE),
    );
    const c = guarded(fake.client, { breakerMinimumCalls: 5 });
    for (let i = 0; i < 40; i++) expect(await kindOf(c.loginJson(`invented-${i}`, 'x'))).toBe('unavailable');
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
    expect(await kindOf(readAs(c, users[0]!))).toBe('ok');
  });

  it('should not let failing logins and one user’s failure open it: the logins are no second vote', async () => {
    const fake = fakeClient(() => fail('unavailable'));
    const c = guarded(fake.client, { breakerMinimumCalls: 5, readRetries: 0 });
    for (let i = 0; i < 10; i++) await kindOf(c.loginJson(`name-${i}`, 'x'));
    for (let i = 0; i < 4; i++) await kindOf(readAs(c, users[0]!));
    for (let i = 0; i < 10; i++) await kindOf(c.loginForm(`name-${i}`, 'x'));
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
    // A second user's failure is: now two identities the upstream accepted found it sick.
    await kindOf(readAs(c, users[1]!));
    expect(c.breakerStates()).toEqual({ 'http://reads': 'open' });
  });

  it('should leave failing logins out of the failure rate: two users failing once each among their successes', async () => {
    let failing = false;
    const fake = fakeClient(() => (failing ? fail('unavailable') : Promise.resolve(PAGE)));
    const c = guarded(fake.client, { breakerMinimumCalls: 5, readRetries: 0 });
    for (let i = 0; i < 5; i++) await kindOf(readAs(c, users[0]!));
    for (let i = 0; i < 5; i++) await kindOf(readAs(c, users[1]!));
    failing = true;
    for (let i = 0; i < 20; i++) await kindOf(c.loginForm(`name-${i}`, 'x'));
    await kindOf(readAs(c, users[0]!));
    await kindOf(readAs(c, users[1]!));
    // 22 of 32 calls failed, but 2 of the 12 of accepted users: not a sick upstream.
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
  });

  it('should let failing logins open it where one source is enough', async () => {
    const fake = fakeClient(() => fail('unavailable'));
    const c = guarded(fake.client, { breakerMinimumCalls: 5, breakerMinimumSources: 1 });
    for (let i = 0; i < 10; i++) await kindOf(c.loginForm(`name-${i}`, 'x'));
    expect(c.breakerStates()).toEqual({ 'http://reads': 'open' });
  });
});

describe('call budget', () => {
  it('should refuse, without calling the upstream, every attempt the budget says no to', async () => {
    const fake = fakeClient(() => Promise.resolve(PAGE));
    let left = 2;
    const c = guarded(fake.client, { takeCall: () => left-- > 0 });
    expect(await kindOf(getAll(c))).toBe('ok');
    expect(await kindOf(getAll(c))).toBe('ok');
    expect(await kindOf(getAll(c))).toBe('call_budget');
    expect(await kindOf(c.save(CREDENTIALS, 'X', {}))).toBe('call_budget');
    expect(fake.calls.length).toBe(2);
    expect(c.breakerStates()).toEqual({ 'http://reads': 'closed' });
  });
});

describe('fair share per session', () => {
  const other: UpstreamCredentials = { username: 'v', apiToken: 'other', applicationCode: 'a' };

  it('should serve another session at once while one session waits behind its own share', async () => {
    const { fake, held, releaseAll } = heldClient();
    const c = guarded(fake.client, {
      maxConcurrentCalls: 8,
      maxConcurrentCallsPerSession: 2,
      maxQueuedCallsPerSession: 3,
    });
    const looping = [1, 2, 3, 4, 5].map(() => getAll(c));
    // The sixth call of the same session finds its share taken and its queue full.
    expect(await kindOf(getAll(c))).toBe('session_overloaded');
    expect(fake.calls.length).toBe(2);
    const served = c.getAll(other, 'X', [], 10, 0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fake.calls.length).toBe(3);
    while (held() > 0) {
      releaseAll();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await kindOf(served)).toBe('ok');
    expect(await Promise.all(looping.map(kindOf))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
  });
});

describe('bulkhead', () => {
  it('should refuse at once with "overloaded" when every slot and queue place is taken', async () => {
    const { fake, releaseAll } = heldClient();
    const c = guarded(fake.client, {
      maxConcurrentCalls: 2,
      maxQueuedCalls: 1,
      maxConcurrentCallsPerSession: 4,
    });
    const running = [getAll(c), getAll(c), getAll(c)];
    expect(await kindOf(getAll(c))).toBe('overloaded');
    expect(fake.calls.length).toBe(2);
    releaseAll();
    await new Promise((resolve) => setTimeout(resolve, 10));
    releaseAll();
    expect(await Promise.all(running.map(kindOf))).toEqual(['ok', 'ok', 'ok']);
  });
});

describe('retries', () => {
  it('should retry a read at most twice', async () => {
    const fake = fakeClient(() => fail('unavailable'));
    const c = guarded(fake.client, { breakerMinimumCalls: 1000 });
    expect(await kindOf(getAll(c))).toBe('unavailable');
    expect(fake.calls).toEqual(['getAll', 'getAll', 'getAll']);
  });

  it('should answer a read that succeeds on its second attempt', async () => {
    const fake = fakeClient((_op, n) => (n === 1 ? fail('timeout') : Promise.resolve(PAGE)));
    expect(await kindOf(getAll(guarded(fake.client)))).toBe('ok');
    expect(fake.calls.length).toBe(2);
  });

  it('should never retry a write or a login', async () => {
    const fake = fakeClient((operation) => fail('unavailable', operation));
    const c = guarded(fake.client, { breakerMinimumCalls: 1000 });
    expect(await kindOf(c.save(CREDENTIALS, 'X', {}))).toBe('unavailable');
    expect(await kindOf(c.update(CREDENTIALS, 'X', 'id', {}))).toBe('unavailable');
    expect(await kindOf(c.loginJson('u', 'p'))).toBe('unavailable');
    expect(fake.calls).toEqual(['save', 'update', 'loginJson']);
  });

  it('should not retry what cannot change on a second try (undecodable, refused by the service)', async () => {
    const fake = fakeClient((_op, n) => fail(n === 1 ? 'bad_response' : 'service'));
    const c = guarded(fake.client);
    expect(await kindOf(getAll(c))).toBe('bad_response');
    expect(await kindOf(getAll(c))).toBe('service');
    expect(fake.calls.length).toBe(2);
  });

  it('should keep retries within 20 % of recent successes', async () => {
    let failing = false;
    const fake = fakeClient(() => (failing ? fail('unavailable') : Promise.resolve(PAGE)));
    const retried: boolean[] = [];
    const c = guarded(fake.client, {
      retryBudget: createRetryBudget({ ratio: 0.2 }),
      breakerMinimumCalls: 1000,
      onRetry: (_operation, allowed) => retried.push(allowed),
    });
    for (let i = 0; i < 50; i++) await getAll(c);
    failing = true;
    for (let i = 0; i < 30; i++) await kindOf(getAll(c));
    expect(retried.filter(Boolean).length).toBe(10);
    expect(fake.calls.length).toBe(50 + 30 + 10);
  });
});

describe('deadline', () => {
  it('should cut a call that outlives the caller’s deadline with a timeout', async () => {
    const fake = fakeClient(() => new Promise(() => undefined));
    const deadline = performance.now() + 50;
    const c = guarded(fake.client, { remainingMillis: () => deadline - performance.now() });
    const started = performance.now();
    expect(await kindOf(getAll(c))).toBe('timeout');
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
  });

  it('should not start a call, nor a retry, once the deadline has passed', async () => {
    const fake = fakeClient(() => fail('unavailable'));
    let remaining = 0;
    const c = guarded(fake.client, { remainingMillis: () => remaining });
    expect(await kindOf(getAll(c))).toBe('timeout');
    expect(fake.calls.length).toBe(0);
    // 10 ms left: less than a retry's backoff, so the failure is answered without retrying.
    remaining = 10;
    expect(await kindOf(getAll(c))).toBe('unavailable');
    expect(fake.calls.length).toBe(1);
  });
});

describe('retry budget', () => {
  it('should allow retries in proportion to successes in a sliding window', () => {
    let now = 0;
    const budget = createRetryBudget({ ratio: 0.2, windowMillis: 10_000, now: () => now });
    expect(budget.tryRetry()).toBe(false);
    for (let i = 0; i < 10; i++) budget.recordSuccess();
    expect([budget.tryRetry(), budget.tryRetry(), budget.tryRetry()]).toEqual([true, true, false]);
    now = 5_000;
    expect(budget.tryRetry()).toBe(false);
    now = 10_500;
    expect(budget.snapshot()).toEqual({ successes: 0, retries: 0 });
    expect(budget.tryRetry()).toBe(false);
  });
});
