/**
 * Whose share of the gateway's own work a request takes (`src/http/capacity/cpu-admission.ts`): a session's
 * user; a login from a known device (a genuine device token in the `deviceToken` variable) its account's,
 * never the anonymous callers' total where any number of networks flooding would queue it; anything else
 * its client network, which also pays for checking a token it made up. The share here only records what
 * it is asked (the policy itself: `test/unit/cpu-share.test.ts`).
 */
import { expect, it } from 'vitest';
import type { CpuCaller, CpuShare } from '../../src/http/capacity/cpu-share.ts';
import { useHarness } from '../support/gateway-harness.ts';

const h = useHarness({ listen: false });

const LOGIN = `mutation Login($username: String!, $password: String!, $deviceToken: String) {
  login(username: $username, password: $password, deviceToken: $deviceToken) { token deviceToken }
}`;

/** Runs `test` with a share that admits everything and records each admission's caller and each charge. */
async function recorded(
  test: (seen: { admitted: CpuCaller[]; charged: CpuCaller[] }) => Promise<void>,
): Promise<void> {
  const seen = { admitted: [] as CpuCaller[], charged: [] as CpuCaller[] };
  const share: CpuShare = {
    admit: (caller) => {
      seen.admitted.push(caller);
      return { done: () => undefined };
    },
    charge: (caller) => {
      seen.charged.push(caller);
    },
    usedMillis: () => 0,
    counts: () => ({ running: 0, waiting: 0 }),
  };
  const original = h.gateway.services.cpuShare;
  h.gateway.services.cpuShare = share;
  try {
    await test(seen);
  } finally {
    h.gateway.services.cpuShare = original;
  }
}

/** Each caller's kind (`u` a session's user, `d` a known device's account, `n` a client network), and whether anonymous. */
function kinds(callers: readonly CpuCaller[]): string[] {
  return callers.map(
    (caller) => `${caller.key.split('\u0000')[0] ?? ''} ${caller.anonymous ? 'anonymous' : 'account'}`,
  );
}

async function deviceTokenOf(username: string, password: string): Promise<string> {
  const answer = await h.post(LOGIN, { username, password });
  const token = (answer.data?.login as { deviceToken?: string } | undefined)?.deviceToken;
  if (token === undefined) throw new Error(JSON.stringify(answer.errors));
  return token;
}

it('should admit a login from a known device as its account, not as its network', async () => {
  const deviceToken = await deviceTokenOf('demo', 'demo-password');
  await recorded(async (seen) => {
    const answer = await h.post(LOGIN, { username: 'demo', password: 'demo-password', deviceToken });
    expect(answer.errors).toBeUndefined();
    expect(kinds(seen.admitted)).toEqual(['d account']);
    // The token's check is charged to the network that sent it.
    expect(kinds(seen.charged)).toEqual(['n anonymous']);
  });
});

it('should admit two known devices of one account as one caller, and another account as another', async () => {
  const first = await deviceTokenOf('demo', 'demo-password');
  const second = await deviceTokenOf('demo', 'demo-password');
  const other = await deviceTokenOf('admin', 'admin-password');
  await recorded(async (seen) => {
    await h.post(LOGIN, { username: 'demo', password: 'demo-password', deviceToken: first });
    await h.post(LOGIN, { username: 'demo', password: 'demo-password', deviceToken: second });
    await h.post(LOGIN, { username: 'admin', password: 'admin-password', deviceToken: other });
    const [a, b, c] = seen.admitted.map((caller) => caller.key);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});

it.each([
  ['a made-up device token', 'not-a-device-token', 1],
  ['a device token with its signature changed', 'SIGNED', 1],
  ['an empty one', '', 1],
  ['one too long to be a token (not checked)', 'x'.repeat(5_000), 0],
  ['a number', 42, 0],
])('should admit a login with %s as its network', async (_name, given, checks) => {
  const genuine = await deviceTokenOf('demo', 'demo-password');
  const deviceToken = given === 'SIGNED' ? `${genuine.slice(0, -4)}AAAA` : given;
  await recorded(async (seen) => {
    await h.post(LOGIN, { username: 'demo', password: 'wrong', deviceToken });
    expect(kinds(seen.admitted)).toEqual(['n anonymous']);
    expect(seen.charged).toHaveLength(checks);
  });
});

it('should admit a request with a session as its user, whatever device token it carries', async () => {
  const deviceToken = await deviceTokenOf('demo', 'demo-password');
  const login = await h.post(LOGIN, { username: 'admin', password: 'admin-password' });
  const token = (login.data?.login as { token: string }).token;
  await recorded(async (seen) => {
    await h.post(
      LOGIN,
      { username: 'demo', password: 'demo-password', deviceToken },
      {
        authorization: `Bearer ${token}`,
      },
    );
    expect(kinds(seen.admitted)).toEqual(['u account']);
    expect(seen.charged).toEqual([]);
  });
});
