/**
 * The canonical user key (`src/auth/user-key.ts`) and how a JSON login learns its account
 * (`src/auth/json-login-account.ts`): the same key for every name of one account, vouched for by the
 * upstream, never by the name a caller types; the lookup asked once per name, and a failed lookup never a
 * failed login.
 */
import { describe, expect, it } from 'vitest';
import { createAccountLinks } from '../../src/auth/account-links.ts';
import { jsonLoginAccount } from '../../src/auth/json-login-account.ts';
import { createSessionSealer } from '../../src/auth/session.ts';
import { accountOf, userKeyOf } from '../../src/auth/user-key.ts';

const DEMO_ID = '64b7f0c2a1e0d00000000001';
const links = () => createAccountLinks({ ttlSeconds: 60 });

describe('userKeyOf', () => {
  it('should give the form login (mobile number) and the JSON login (username, learnt) of one account one key', async () => {
    const store = links();
    const byMobile = { applicationCode: 'demo', username: '5550100', userId: DEMO_ID };
    const learnt = await jsonLoginAccount(store, 'demo', () => Promise.resolve(DEMO_ID));
    const byName = { applicationCode: 'demo', username: 'demo', userId: null, account: learnt.account };
    expect(userKeyOf(byName)).toBe(userKeyOf({ ...byMobile, account: accountOf(byMobile) }));
    // Sessions sealed before the account existed: the form login's still by its user id.
    expect(userKeyOf(byMobile)).toBe(userKeyOf(byName));
  });

  it('should keep accounts apart: another user id, another application, another name without a user id', () => {
    const demo = userKeyOf({ applicationCode: 'demo', username: '5550100', userId: DEMO_ID });
    expect(userKeyOf({ applicationCode: 'demo', username: '5550100', userId: 'other-id' })).not.toBe(demo);
    expect(userKeyOf({ applicationCode: 'crm', username: '5550100', userId: DEMO_ID })).not.toBe(demo);
    // A name alone is an account of its own, exactly as accepted (a case-sensitive upstream's `Bob` ≠ `bob`).
    const bob = userKeyOf({ applicationCode: 'demo', username: 'bob', userId: null });
    expect(bob).not.toBe(demo);
    expect(userKeyOf({ applicationCode: 'demo', username: 'Bob', userId: null })).not.toBe(bob);
  });

  it('should carry the account in the sealed session, and hold no secret in the key', async () => {
    const sealer = createSessionSealer({ secret: 's'.repeat(32), ttlSeconds: 60 });
    const account = accountOf({ userId: DEMO_ID, username: 'demo' });
    const { token } = await sealer.seal({
      username: 'demo',
      userId: null,
      account,
      applicationCode: 'demo',
      organizationCode: null,
      apiToken: 'upstream-secret-token',
    });
    const opened = await createSessionSealer({ secret: 's'.repeat(32), ttlSeconds: 60 }).open(token);
    expect(opened?.account).toBe(account);
    expect(userKeyOf(opened!)).not.toMatch(/upstream-secret-token|demo-password/);
  });
});

describe('jsonLoginAccount', () => {
  it('should ask the form login once per name, then answer the link', async () => {
    const store = links();
    let asked = 0;
    const askForm = () => {
      asked += 1;
      return Promise.resolve(DEMO_ID);
    };
    const first = await jsonLoginAccount(store, 'demo', askForm);
    expect(first).toEqual({ account: accountOf({ userId: DEMO_ID, username: 'demo' }), userId: DEMO_ID });
    // The login guard links the name to the user id learnt (login-protection.ts); then no lookup is made.
    await store.link('demo', DEMO_ID);
    expect(await jsonLoginAccount(store, 'demo', askForm)).toEqual({ account: first.account, userId: null });
    expect(asked).toBe(1);
  });

  it('should let the name stand for the account when the lookup fails, without failing the login', async () => {
    const failures: unknown[] = [];
    const refused = new Error('form login refused');
    const learnt = await jsonLoginAccount(
      links(),
      'demo',
      () => Promise.reject(refused),
      (error) => failures.push(error),
    );
    expect(learnt).toEqual({ account: accountOf({ userId: null, username: 'demo' }), userId: null });
    expect(failures).toEqual([refused]);
    expect(await jsonLoginAccount(links(), 'demo', () => Promise.resolve(''))).toMatchObject({
      userId: null,
    });
  });

  it('should not ask again, for a while, under a name whose lookup failed (no second call, no second warning)', async () => {
    const failedLookups = new Map<string, true>();
    let asked = 0;
    const refuse = () => {
      asked += 1;
      return Promise.reject(new Error('no form login here'));
    };
    const warnings: unknown[] = [];
    for (let i = 0; i < 3; i += 1) {
      const learnt = await jsonLoginAccount(links(), 'demo', refuse, (e) => warnings.push(e), failedLookups);
      expect(learnt).toEqual({ account: accountOf({ userId: null, username: 'demo' }), userId: null });
    }
    expect(asked).toBe(1);
    expect(warnings).toHaveLength(1);
    // Another name is still asked.
    await jsonLoginAccount(links(), 'ops', refuse, undefined, failedLookups);
    expect(asked).toBe(2);
  });

  it('should never answer an account linked under another spelling of the name', async () => {
    // `Demo` logged in (its password right) and was linked; `demo`, typed by someone else, is not `Demo`.
    const store = links();
    await store.link('Demo', DEMO_ID);
    const learnt = await jsonLoginAccount(store, 'demo', () => Promise.resolve('another-account'));
    expect(learnt.account).toBe(accountOf({ userId: 'another-account', username: 'demo' }));
  });
});
