/** The example front-end's logic that needs no browser: error wording, the session store. */
import { CombinedGraphQLErrors, ServerError } from '@apollo/client';
import { describe, expect, it } from 'vitest';
import { describeError, formatWait } from '../../examples/web/src/error-message.ts';
import { changedFields } from '../../examples/web/src/loan-type.ts';
import { createDeviceTokenStore } from '../../examples/web/src/device-token-store.ts';
import { createSessionStore } from '../../examples/web/src/session-store.ts';

const graphqlError = (extensions: Record<string, unknown>, message = 'Invalid username or password.') =>
  new CombinedGraphQLErrors({ data: null, errors: [{ message, extensions }] });

describe('the error banner and login messages', () => {
  it('should show the gateway code and its generic message', () => {
    expect(describeError(graphqlError({ code: 'UNAUTHENTICATED' }))).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Invalid username or password.',
    });
  });

  it('should say when to try again after a lock-out', () => {
    expect(describeError(graphqlError({ code: 'UNAUTHENTICATED', retryAfter: 42 }))).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Too many failed sign-ins: this sign-in is locked. Try again in 42 seconds.',
      retryAfterSeconds: 42,
    });
    expect(describeError(graphqlError({ code: 'UNAUTHENTICATED', retryAfter: '299.5' })).message).toContain(
      'Try again in 5 minutes.',
    );
  });

  it('should round waits up, never down', () => {
    expect([1, 59, 90, 91, 3600].map(formatWait)).toEqual([
      '1 second',
      '59 seconds',
      '2 minutes',
      '2 minutes',
      '60 minutes',
    ]);
  });

  it('should name HTTP and network failures', () => {
    const server = new ServerError('bad gateway', {
      response: new Response('', { status: 502 }),
      bodyText: '',
    });
    expect(describeError(server).code).toBe('HTTP_502');
    expect(describeError(new TypeError('Failed to fetch'))).toMatchObject({ code: 'NETWORK_ERROR' });
  });
});

describe('inline edit', () => {
  it('should send only the fields that changed', () => {
    const before = { loanType: 'Home Fixed', description: 'd', rate: 2.5 };
    expect(changedFields(before, { ...before, rate: 3 })).toEqual({ rate: 3 });
    expect(changedFields(before, { ...before })).toEqual({});
  });
});

describe('the session store', () => {
  const memoryStorage = (): Storage => {
    const items = new Map<string, string>();
    return {
      get length() {
        return items.size;
      },
      key: (i) => [...items.keys()][i] ?? null,
      getItem: (k) => items.get(k) ?? null,
      setItem: (k, v) => {
        items.set(k, v);
      },
      removeItem: (k) => {
        items.delete(k);
      },
      clear: () => {
        items.clear();
      },
    };
  };

  it('should keep one device token per account, whatever the case of the name, and ignore junk', () => {
    const storage = memoryStorage();
    const devices = createDeviceTokenStore(storage);
    expect(devices.get('demo')).toBeUndefined();
    devices.set('Demo ', 'device-1');
    devices.set('ops', 'device-2');
    expect(devices.get('demo')).toBe('device-1');
    expect(devices.get('OPS')).toBe('device-2');
    storage.setItem('gateway-example.devices', '{not json');
    expect(devices.get('demo')).toBeUndefined();
  });

  it('should keep a session until it expires', () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = createSessionStore(memoryStorage(), () => now);
    const session = { token: 't', username: 'demo', expiresAt: '2026-01-01T08:00:00Z' };
    store.set(session);
    expect(store.get()).toEqual(session);
    now = Date.parse('2026-01-01T08:00:00Z');
    expect(store.get()).toBeUndefined();
  });

  it('should forget a stored value it cannot read', () => {
    const storage = memoryStorage();
    storage.setItem('gateway-example.session', '{not json');
    expect(createSessionStore(storage).get()).toBeUndefined();
    expect(storage.length).toBe(0);
  });
});
