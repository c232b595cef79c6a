/**
 * Sessions that cannot be turned against their users: logout (shared by replicas through Redis), a session
 * the upstream rejected is dead, tokens only under the gateway's own algorithms, key rotation, organization
 * codes checked at login, and `Cache-Control: no-store` on answers that carry tokens.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { EncryptJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { deriveSessionKey } from '../../src/auth/session.ts';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { LOAN_TYPES, LOGIN, loginDemo, postGraphql, type GraphqlAnswer } from '../support/post-graphql.ts';
import { useRedisServer } from '../support/servers/redis-server.ts';

const SECRET = 's'.repeat(40);
const ME = '{ me { username expiresAt } }';
const LOGOUT = 'mutation { logout }';

// Upstream tokens live 3 s, so a test can watch one expire under a live gateway session.
const { emulator, gateway } = useGatewayPool({
  env: { SESSION_SECRET: SECRET },
  emulator: { tokenTtlSeconds: 3 },
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function firstError(answer: GraphqlAnswer): { message: string; extensions: Record<string, unknown> } {
  const error = answer.errors?.[0];
  if (error === undefined) throw new Error(`expected an error, got ${JSON.stringify(answer.data)}`);
  return { message: error.message, extensions: error.extensions ?? {} };
}

describe('logout', () => {
  it('should end the session: me is null, reads are UNAUTHENTICATED with reason revoked', async () => {
    const gw = await gateway();
    const token = await loginDemo(gw.graphqlUrl);
    expect((await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, bearer(token))).errors).toBeUndefined();

    const out = await postGraphql(gw.graphqlUrl, LOGOUT, {}, bearer(token));
    expect(out.data).toEqual({ logout: true });
    expect(out.headers.get('cache-control')).toBe('no-store');

    expect((await postGraphql(gw.graphqlUrl, ME, {}, bearer(token))).data).toEqual({ me: null });
    emulator.resetStats();
    const read = firstError(await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, bearer(token)));
    expect(read).toEqual({
      message: 'The session was logged out; log in again.',
      extensions: { code: 'UNAUTHENTICATED', reason: 'revoked', blame: 'caller' },
    });
    expect(emulator.stats().getAll).toBe(0);
    // Logging out twice is no mistake; logging out without a token is.
    expect((await postGraphql(gw.graphqlUrl, LOGOUT, {}, bearer(token))).data).toEqual({ logout: true });
    const anonymous = firstError(await postGraphql(gw.graphqlUrl, LOGOUT));
    expect(anonymous.extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'missing' });
  });

  it('should leave the other sessions of the same user alone', async () => {
    const gw = await gateway();
    const first = await loginDemo(gw.graphqlUrl);
    const second = await loginDemo(gw.graphqlUrl);
    await postGraphql(gw.graphqlUrl, LOGOUT, {}, bearer(first));
    expect((await postGraphql(gw.graphqlUrl, ME, {}, bearer(second))).data).toMatchObject({
      me: { username: 'demo' },
    });
  });

  describe('on a second replica sharing Redis', () => {
    const redis = useRedisServer();

    it('should answer me null and reads UNAUTHENTICATED on the replica that did not see the logout', async (context) => {
      const [a, b] = await redis.twoReplicas(context, gateway);
      const token = await loginDemo(a.graphqlUrl);
      // B has opened (and cached) the session before the logout: the list is consulted after that cache.
      expect((await postGraphql(b.graphqlUrl, ME, {}, bearer(token))).data).toMatchObject({ me: {} });

      expect((await postGraphql(a.graphqlUrl, LOGOUT, {}, bearer(token))).data).toEqual({ logout: true });

      expect((await postGraphql(b.graphqlUrl, ME, {}, bearer(token))).data).toEqual({ me: null });
      const read = firstError(await postGraphql(b.graphqlUrl, LOAN_TYPES, {}, bearer(token)));
      expect(read.extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'revoked' });
    });
  });
});

describe('a session the upstream rejected', () => {
  it('should be dead: reason rejected_by_upstream, no http extension, me null, no further upstream call', async () => {
    const gw = await gateway();
    const token = await loginDemo(gw.graphqlUrl);
    expect((await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, bearer(token))).errors).toBeUndefined();
    await sleep(3_200); // the upstream token expires; the gateway's session would last 8 hours

    const rejected = firstError(await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, bearer(token)));
    expect(rejected).toEqual({
      message: 'The upstream service no longer accepts this session; log in again.',
      extensions: { code: 'UNAUTHENTICATED', reason: 'rejected_by_upstream', blame: 'caller' },
    });
    expect((await postGraphql(gw.graphqlUrl, ME, {}, bearer(token))).data).toEqual({ me: null });
    emulator.resetStats();
    const later = firstError(await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, bearer(token)));
    expect(later.extensions).toEqual({
      code: 'UNAUTHENTICATED',
      reason: 'rejected_by_upstream',
      blame: 'caller',
    });
    expect(emulator.stats().getAll).toBe(0);
  });

  it('should say log in again, not FORBIDDEN, when the upstream token expired before the first call', async () => {
    const gw = await gateway();
    const token = await loginDemo(gw.graphqlUrl);
    await sleep(3_200); // the upstream token expires before the session's first call ("token expired")

    const rejected = firstError(await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, bearer(token)));
    expect(rejected).toEqual({
      message: 'The upstream service no longer accepts this session; log in again.',
      extensions: { code: 'UNAUTHENTICATED', reason: 'rejected_by_upstream', blame: 'caller' },
    });
    expect((await postGraphql(gw.graphqlUrl, ME, {}, bearer(token))).data).toEqual({ me: null });
  });

  it('should answer FORBIDDEN with a readable message when the account cannot use this application', async () => {
    const gw = await gateway();
    // `crm` belongs to application `crm`; the gateway serves `demo`. Its login works upstream.
    const login = await postGraphql(gw.graphqlUrl, LOGIN, { username: 'crm', password: 'crm-password' });
    const token = (login.data?.login as { token: string }).token;

    const refused = firstError(await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, bearer(token)));
    expect(refused.extensions).toEqual({
      code: 'FORBIDDEN',
      blame: 'caller',
      reason: 'not_allowed_after_login',
    });
    expect(refused.message).toContain('cannot use application "demo" in organization "acme"');
    expect(refused.message).toContain('ask an administrator');
    expect((await postGraphql(gw.graphqlUrl, ME, {}, bearer(token))).data).toEqual({ me: null });
  });
});

describe('tokens', () => {
  const payload = { u: 'demo', i: null, a: 'demo', o: 'acme', t: 'upstream-token' };

  async function forge(
    header: { alg: string; enc: string; zip?: string },
    claims = payload,
  ): Promise<string> {
    let jwt = new EncryptJWT(claims).setProtectedHeader(header).setIssuedAt().setExpirationTime('1h');
    jwt = jwt.setJti('forged-1');
    return jwt.encrypt(deriveSessionKey(SECRET));
  }

  it.each([
    ['A256KW key wrapping', { alg: 'A256KW', enc: 'A256GCM' }],
    ['A128CBC-HS256 content encryption', { alg: 'dir', enc: 'A128CBC-HS256' }],
    ['compression (zip DEF)', { alg: 'dir', enc: 'A256GCM', zip: 'DEF' }],
  ])('should refuse a token made with the real key under %s', async (_case, header) => {
    const gw = await gateway();
    const token = await forge(header);
    expect((await postGraphql(gw.graphqlUrl, ME, {}, bearer(token))).data).toEqual({ me: null });
    const read = firstError(await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, bearer(token)));
    expect(read.extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'invalid' });
  });

  it('should refuse a token without a jti, even under the right algorithms', async () => {
    const gw = await gateway();
    const token = await new EncryptJWT(payload)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .encrypt(deriveSessionKey(SECRET));
    expect((await postGraphql(gw.graphqlUrl, ME, {}, bearer(token))).data).toEqual({ me: null });
  });

  it('should open tokens of SESSION_SECRET_PREVIOUS while sealing new ones with SESSION_SECRET only', async () => {
    const old = await gateway();
    const before = await loginDemo(old.graphqlUrl);
    const rotated = await gateway({ SESSION_SECRET: 'n'.repeat(40), SESSION_SECRET_PREVIOUS: SECRET });
    expect((await postGraphql(rotated.graphqlUrl, ME, {}, bearer(before))).data).toMatchObject({
      me: { username: 'demo' },
    });
    const after = await loginDemo(rotated.graphqlUrl);
    // A replica still on the old secret alone cannot open the new token: it was sealed with the new key.
    expect((await postGraphql(old.graphqlUrl, ME, {}, bearer(after))).data).toEqual({ me: null });
    const retired = await gateway({ SESSION_SECRET: 'n'.repeat(40) });
    expect((await postGraphql(retired.graphqlUrl, ME, {}, bearer(before))).data).toEqual({ me: null });
  });

  it('should send Cache-Control: no-store with the token of a login', async () => {
    const gw = await gateway();
    const answer = await postGraphql(gw.graphqlUrl, LOGIN, { username: 'demo', password: 'demo-password' });
    expect(answer.data?.login).toMatchObject({ token: expect.any(String) });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });
});

describe('organizationCode at login', () => {
  const LOGIN_IN = `mutation ($organizationCode: String) {
    login(username: "demo", password: "demo-password", organizationCode: $organizationCode) { token }
  }`;

  it.each([[''], [' '], ['acme,globex'], ['.*'], ['a'.repeat(65)]])(
    'should refuse %j as BAD_USER_INPUT without asking the upstream',
    async (organizationCode) => {
      const gw = await gateway();
      emulator.resetStats();
      const error = firstError(await postGraphql(gw.graphqlUrl, LOGIN_IN, { organizationCode }));
      expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'organizationCode' });
      expect(emulator.stats().loginJson).toBe(0);
    },
  );

  it('should refuse an organization outside ALLOWED_ORGANIZATION_CODES as FORBIDDEN', async () => {
    const gw = await gateway({ ALLOWED_ORGANIZATION_CODES: 'acme' });
    const error = firstError(await postGraphql(gw.graphqlUrl, LOGIN_IN, { organizationCode: 'globex' }));
    expect(error.extensions).toMatchObject({ code: 'FORBIDDEN', argumentName: 'organizationCode' });
    expect((await postGraphql(gw.graphqlUrl, LOGIN_IN, { organizationCode: 'acme' })).errors).toBeUndefined();
    expect((await postGraphql(gw.graphqlUrl, LOGIN_IN, {})).errors).toBeUndefined();
  });

  it('should make a login name its organization when the gateway has a list but no default', async () => {
    // Otherwise the session would have no organization, and the upstream would refuse its every save.
    const gw = await gateway({ ALLOWED_ORGANIZATION_CODES: 'acme,globex', ORGANIZATION_CODE: '' });
    const error = firstError(await postGraphql(gw.graphqlUrl, LOGIN_IN, {}));
    expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'organizationCode' });
    expect(error.message).toMatch(/organizationCode is required/);
    expect((await postGraphql(gw.graphqlUrl, LOGIN_IN, { organizationCode: 'acme' })).errors).toBeUndefined();
  });
});
