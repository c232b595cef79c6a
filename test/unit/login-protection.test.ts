/**
 * Login protection is told what a login came to (accepted or refused) by the resolver: only a refusal
 * counts, an outage is passed on untouched, and every refusal answers the same generic UNAUTHENTICATED.
 */
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { accountKey, createAccountLinks } from '../../src/auth/account-links.ts';
import { jsonLoginAccount } from '../../src/auth/json-login-account.ts';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { createDeviceTokens } from '../../src/auth/device-token.ts';
import { createLoginLimiter } from '../../src/auth/login-limiter.ts';
import { createLoginProtection, type LoginOutcome } from '../../src/auth/login-protection.ts';
import { createLoginShare, type LoginShareOptions } from '../../src/auth/login-share.ts';

interface Identity {
  accountUserId: string | null;
  account: string;
}

const ROOMY_SHARE: LoginShareOptions = {
  maxPerMinutePerAddress: 1_000,
  maxPerMinutePerAccount: 1_000,
  maxConcurrentPerAddress: 1_000,
  maxConcurrentPerAccount: 1_000,
};

function protection(maxConsecutiveFailures = 2, share = ROOMY_SHARE) {
  return createLoginProtection({
    share: createLoginShare(share),
    limiter: createLoginLimiter({
      maxConsecutiveFailures,
      blockSeconds: 60,
      maxFailuresPerUser: 100,
      maxFailuresPerIp: 100,
      maxTrackedCounters: 50_000,
    }),
    links: createAccountLinks({ ttlSeconds: 60 }),
    devices: createDeviceTokens({ secret: 's'.repeat(32), ttlSeconds: 60 }),
    minFailureMillis: 0,
  });
}

const attempt = { username: 'demo', clientIp: '10.0.0.1', deviceToken: undefined };
const refused = (): Promise<LoginOutcome<Identity>> => Promise.resolve({ accepted: false });
const accepted = (): Promise<LoginOutcome<Identity>> =>
  Promise.resolve({ accepted: true, result: { accountUserId: null, account: 'x.demo' } });

/** The error `work` rejects with. */
async function failure(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

/** The GraphQL error `work` rejects with. */
async function refusal(work: Promise<unknown>): Promise<GraphQLError> {
  const error = await failure(work);
  if (!(error instanceof GraphQLError)) return expect.fail(`expected a GraphQLError, got ${String(error)}`);
  return error;
}

describe('login protection', () => {
  it('should answer an accepted login with its result and a device token', async () => {
    const { result, deviceToken } = await protection().run(attempt, accepted);
    expect(result).toEqual({ accountUserId: null, account: 'x.demo' });
    expect(deviceToken).toEqual(expect.any(String));
  });

  it('should answer a refusal with the generic UNAUTHENTICATED, then block after the limit', async () => {
    const guard = protection(2);
    const first = await refusal(guard.run(attempt, refused));
    expect(first.message).toBe('Invalid username or password.');
    expect(first.extensions).toEqual({ code: 'UNAUTHENTICATED' });
    const second = await refusal(guard.run(attempt, refused));
    expect(second.extensions).toMatchObject({ code: 'UNAUTHENTICATED', retryAfter: expect.any(Number) });
    const blocked = await refusal(guard.run(attempt, accepted));
    expect(blocked.extensions).toMatchObject({ code: 'UNAUTHENTICATED', retryAfter: expect.any(Number) });
  });

  it('should pass an outage on untouched and not count it', async () => {
    const guard = protection(1);
    const outage = new Error('upstream down');
    expect(await failure(guard.run(attempt, () => Promise.reject(outage)))).toBe(outage);
    expect(await failure(guard.run(attempt, () => Promise.reject(outage)))).toBe(outage);
    await expect(guard.run(attempt, accepted)).resolves.toMatchObject({
      result: { accountUserId: null, account: 'x.demo' },
    });
  });

  it('should send no more guesses upstream than the budget, however many arrive together', async () => {
    const guard = protection(5);
    let upstream = 0;
    const slowRefusal = async (): Promise<LoginOutcome<Identity>> => {
      upstream += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { accepted: false };
    };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => failure(guard.run(attempt, slowRefusal))),
    );
    expect(upstream).toBe(5);
    expect(answers.every((error) => error instanceof GraphQLError)).toBe(true);
  });

  it('should refuse a login past its share with TOO_MANY_REQUESTS before the upstream, the right password too', async () => {
    const guard = protection(5, { ...ROOMY_SHARE, maxConcurrentPerAddress: 2 });
    let upstream = 0;
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow = async (): Promise<LoginOutcome<Identity>> => {
      upstream += 1;
      await gate;
      return { accepted: true, result: { accountUserId: null, account: 'x.demo' } };
    };
    const running = [guard.run(attempt, slow), guard.run({ ...attempt, username: 'other' }, slow)];
    const third = await refusal(guard.run({ ...attempt, username: 'third' }, accepted));
    expect(third.extensions).toEqual({
      code: 'TOO_MANY_REQUESTS',
      blame: 'caller',
      reason: 'login_share',
      retryAfter: 1,
    });
    open();
    await Promise.all(running);
    expect(upstream).toBe(2);
    await expect(guard.run(attempt, accepted)).resolves.toMatchObject({
      result: { accountUserId: null, account: 'x.demo' },
    });
  });

  it('should keep a login refused by the gateway’s own shares as a failure of an unknown client, never of a known device', async () => {
    const guard = protection(2);
    const overloaded = new UpstreamError('session_overloaded', 'the share is taken', {
      operation: 'loginJson',
    });
    const refusedByShare = () => Promise.reject(overloaded);
    const { deviceToken } = await guard.run(attempt, accepted);
    // The known device's two refusals by the share are given back: it is not blocked.
    for (let i = 0; i < 2; i++) {
      expect(await failure(guard.run({ ...attempt, deviceToken }, refusedByShare))).toBe(overloaded);
    }
    await expect(guard.run({ ...attempt, deviceToken }, accepted)).resolves.toBeDefined();
    // An unknown client's are kept: two of them block it, as two wrong passwords would.
    for (let i = 0; i < 2; i++) expect(await failure(guard.run(attempt, refusedByShare))).toBe(overloaded);
    const blocked = await refusal(guard.run(attempt, accepted));
    expect(blocked.extensions).toMatchObject({ code: 'UNAUTHENTICATED', retryAfter: expect.any(Number) });
  });

  it('should know a device token only for the exact name, or an account the upstream confirmed for the name', async () => {
    const guard = protection(2);
    const twin = { ...attempt, username: 'Ops' };
    const { deviceToken } = await guard.run(twin, () =>
      Promise.resolve({ accepted: true, result: { accountUserId: 'twin-id', account: 'a.twin' } }),
    );
    // `ops` folds to `Ops` but is another account: the twin's token is an unknown client's there.
    for (let i = 0; i < 2; i++)
      await failure(guard.run({ ...attempt, username: 'ops', deviceToken }, refused));
    const blocked = await refusal(guard.run({ ...attempt, username: 'ops', deviceToken }, accepted));
    expect(blocked.extensions).toMatchObject({ retryAfter: expect.any(Number) });
  });
});

describe('the account of a JSON login', () => {
  it('should never be a form login’s link of the same name (another account’s mobile number)', async () => {
    const links = createAccountLinks({ ttlSeconds: 60 });
    // Another account logged in by form with its mobile number, which is this user's username.
    await links.link('5550101', 'other-account');
    let asked = 0;
    const first = await jsonLoginAccount(links, '5550101', () => {
      asked += 1;
      return Promise.resolve('own-account');
    });
    expect(first).toEqual({ account: accountKey('own-account'), userId: 'own-account' });
    // Confirmed once by the upstream's answer, the next JSON login under the name asks nothing.
    const second = await jsonLoginAccount(links, '5550101', () => Promise.resolve('never'));
    expect(second.account).toBe(accountKey('own-account'));
    expect(asked).toBe(1);
  });
});

describe('the failure counters of a JSON login', () => {
  it('should count every spelling folding to a confirmed name under its account, never as its identity', async () => {
    const links = createAccountLinks({ ttlSeconds: 60 });
    await links.linkJson('admin', 'admin-account');
    for (const spelled of ['admin', 'ADMIN', ' Admin ']) {
      expect(await links.jsonCountedAccountOf(spelled)).toBe(accountKey('admin-account'));
    }
    // The identity is the exact name's alone: a case-sensitive upstream may hold `Admin` as another account.
    expect(await links.jsonLinkedAccountOf('ADMIN')).toBeUndefined();
    // A form login's link of the name (another account's mobile number) is never the JSON login's account.
    await links.link('5550101', 'other-account');
    expect(await links.jsonCountedAccountOf('5550101')).not.toBe(accountKey('other-account'));
  });

  it('should hold one guess budget however the confirmed name is spelled', async () => {
    const links = createAccountLinks({ ttlSeconds: 60 });
    await links.linkJson('demo', 'demo-account');
    const guard = createLoginProtection({
      share: createLoginShare(ROOMY_SHARE),
      limiter: createLoginLimiter({
        maxConsecutiveFailures: 1_000,
        blockSeconds: 60,
        maxFailuresPerUser: 10,
        maxFailuresPerIp: 1_000,
        maxTrackedCounters: 50_000,
      }),
      links,
      devices: createDeviceTokens({ secret: 's'.repeat(32), ttlSeconds: 60 }),
      minFailureMillis: 0,
    });
    let upstream = 0;
    const wrong = (): Promise<LoginOutcome<Identity>> => {
      upstream += 1;
      return Promise.resolve({ accepted: false });
    };
    const spellings = ['demo', 'DEMO', ' demo', 'Demo'];
    for (let i = 0; i < 80; i++) {
      const username = spellings[i % spellings.length] ?? 'demo';
      await failure(
        guard.run({ username, clientIp: `10.0.${i}.1`, deviceToken: undefined, method: 'JSON' }, wrong),
      );
    }
    expect(upstream).toBe(10);
  });
});
