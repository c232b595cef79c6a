import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { errorCodes, firstError } from '../support/graphql-errors.ts';
import { LoginDocument, MeDocument, ObjectsDocument } from '../support/operations.ts';

const h = useHarness();

/** Logs in with `method` through a client without a session. */
const logIn = (username: string, password: string, method: 'JSON' | 'FORM') =>
  h.client().mutate({ mutation: LoginDocument, variables: { username, password, method } });

describe('login', () => {
  it('should open a session with the JSON login', async () => {
    const result = await logIn('demo', 'demo-password', 'JSON');
    expect(result.error).toBeUndefined();
    const login = result.data!.login;
    expect(login.user).toMatchObject({ id: null, username: 'demo' });
    expect(login.token).not.toContain('demo-password');
    const expiresInSeconds = (Date.parse(login.expiresAt) - Date.now()) / 1000;
    expect(expiresInSeconds).toBeGreaterThan(28_700);
    expect(expiresInSeconds).toBeLessThanOrEqual(28_800);
  });

  it('should open a session with the form login by username, with the user id', async () => {
    const result = await logIn('demo', 'demo-password', 'FORM');
    expect(result.error).toBeUndefined();
    expect(result.data!.login.user.username).toBe('demo');
    expect(result.data!.login.user.id).toEqual(expect.any(String));
  });

  it('should open a session with the form login by mobile number, and read with it', async () => {
    const result = await logIn('5550100', 'demo-password', 'FORM');
    expect(result.error).toBeUndefined();
    expect(result.data!.login.user.username).toBe('5550100');
    const page = await h.client(result.data!.login.token).query({
      query: ObjectsDocument,
      variables: { objectName: 'com.example.LoanType', first: 3 },
    });
    expect(page.error).toBeUndefined();
    expect(page.data!.objects.nodes).toHaveLength(3);
  });

  it.each([
    ['a wrong password', 'demo', 'wrong-password', 'JSON'],
    ['an unknown user', 'nobody-here', 'demo-password', 'JSON'],
    ['a wrong password (form)', 'demo', 'wrong-password', 'FORM'],
    ['an unknown user (form)', 'nobody-here', 'demo-password', 'FORM'],
  ] as const)(
    'should answer one generic UNAUTHENTICATED error for %s',
    async (_case, username, password, method) => {
      const result = await logIn(username, password, method);
      expect(result.data?.login ?? null).toBeNull();
      const error = firstError(result.error);
      expect(error.extensions.code).toBe('UNAUTHENTICATED');
      expect(error.message).toBe('Invalid username or password.');
      expect(error.extensions).not.toHaveProperty('upstream');
    },
  );
});

describe('me', () => {
  it('should answer the session of a valid token', async () => {
    const token = await h.login('FORM');
    const result = await h.client(token).query({ query: MeDocument });
    expect(result.data!.me).toMatchObject({
      username: 'demo',
      applicationCode: 'demo',
      organizationCode: 'acme',
    });
    expect(result.data!.me!.userId).toEqual(expect.any(String));
  });

  it.each([
    ['no token', undefined],
    ['a garbage token', 'not-a-token'],
    ['a tampered token', 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC'],
  ])('should answer null for %s', async (_case, token) => {
    const result = await h.client(token).query({ query: MeDocument });
    expect(result.error).toBeUndefined();
    expect(result.data!.me).toBeNull();
  });
});

describe('protected fields', () => {
  it.each([
    ['no token', undefined],
    ['a garbage token', 'garbage'],
  ])('should refuse %s with UNAUTHENTICATED', async (_case, token) => {
    const result = await h.client(token).query({
      query: ObjectsDocument,
      variables: { objectName: 'com.example.LoanType', first: 1 },
    });
    expect(errorCodes(result.error)).toEqual(['UNAUTHENTICATED']);
  });

  it('should refuse a session whose upstream token the upstream rejects from its first call: FORBIDDEN, then dead', async () => {
    const { token } = await h.gateway.services.sessions.seal({
      username: 'demo',
      userId: null,
      applicationCode: 'demo',
      organizationCode: 'acme',
      apiToken: 'revoked-upstream-token',
    });
    const result = await h.client(token).query({
      query: ObjectsDocument,
      variables: { objectName: 'com.example.LoanType', first: 1 },
    });
    // Never accepted by the upstream: the account cannot use this application (see test/hardening/sessions).
    expect(errorCodes(result.error)).toEqual(['FORBIDDEN']);
    const again = await h.client(token).query({
      query: ObjectsDocument,
      variables: { objectName: 'com.example.LoanType', first: 1 },
    });
    expect(firstError(again.error).extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      reason: 'rejected_by_upstream',
    });
    expect((await h.client(token).query({ query: MeDocument })).data!.me).toBeNull();
  });
});
