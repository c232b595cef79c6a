import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { getAll, postForm, postJson } from '../support/emulator-wire.ts';

let emulator: RunningEmulator;
let clock = Date.parse('2025-01-01T00:00:00Z');

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, tokenTtlSeconds: 60, now: () => clock });
});
afterAll(() => emulator.close());

const readLoanTypes = (username: string, apiToken: string) =>
  getAll(emulator, { username, apiToken, applicationCode: DEMO.applicationCode }, 'com.example.LoanType', {
    pageSize: '1',
  });

describe('JSON login', () => {
  it('should answer plain JSON with status success and a token', async () => {
    const answer = await postJson(emulator, '/v1/user/login', {
      username: DEMO.username,
      password: DEMO.password,
    });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(Object.keys(answer.json).sort()).toEqual(['status', 'token']);
    expect(answer.json.status).toBe('success');
    expect(answer.json.token).toMatch(/^[\w-]{20,}$/);
  });

  it('should answer status error with a credentials message for a wrong password or an unknown user', async () => {
    for (const body of [
      { username: DEMO.username, password: 'nope' },
      { username: 'nobody', password: DEMO.password },
    ]) {
      const answer = await postJson(emulator, '/v1/user/login', body);
      expect(answer.status).toBe(200);
      expect(answer.json.status).toBe('error');
      expect(answer.json.message).toMatch(/credentials/);
      expect(answer.json).not.toHaveProperty('token');
    }
  });

  it.each([
    ['malformed JSON', '{"username":'],
    ['an array', '[]'],
    ['missing password', JSON.stringify({ username: DEMO.username })],
    ['a non-string password', JSON.stringify({ username: DEMO.username, password: 42 })],
  ])('should answer status error with a plain message for %s', async (_, body) => {
    const answer = await postJson(emulator, '/v1/user/login', body);
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe('error');
    expect(answer.json.message).toEqual(expect.any(String));
    expect(answer.body).not.toMatch(/at .*\.ts/);
  });

  it('should refuse a body over 1 MB with a plain error', async () => {
    const answer = await postJson(emulator, '/v1/user/login', {
      username: 'x'.repeat(1_100_000),
      password: 'y',
    });
    expect(answer.json).toEqual({ status: 'error', message: 'request body larger than 1 MB' });
  });

  it('should keep the tokens of earlier logins valid', async () => {
    const first = await postJson(emulator, '/v1/user/login', {
      username: DEMO.username,
      password: DEMO.password,
    });
    const second = await postJson(emulator, '/v1/user/login', {
      username: DEMO.username,
      password: DEMO.password,
    });
    expect(first.json.token).not.toBe(second.json.token);
    expect((await readLoanTypes(DEMO.username, first.json.token as string)).json.status).toBe('success');
    expect((await readLoanTypes(DEMO.username, second.json.token as string)).json.status).toBe('success');
  });

  it('should reject a token after its lifetime with a token message', async () => {
    const { json } = await postJson(emulator, '/v1/user/login', {
      username: DEMO.username,
      password: DEMO.password,
    });
    clock += 61_000;
    const answer = await readLoanTypes(DEMO.username, json.token as string);
    expect(answer.json).toEqual({ status: 'error', message: 'token expired: log in again' });
  });
});

describe('form login', () => {
  it('should answer status, userId, the submitted username, token and message', async () => {
    const answer = await postForm(emulator, `username=${DEMO.username}&password=${DEMO.password}`);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.json).toEqual({
      status: 'success',
      userId: expect.stringMatching(/^[0-9a-f]{24}$/),
      username: DEMO.username,
      token: expect.any(String),
      message: expect.any(String),
    });
  });

  it('should accept the mobile number, echo it, and let reads use it as username', async () => {
    const answer = await postForm(emulator, `username=${DEMO.mobile}&password=${DEMO.password}`);
    expect(answer.json.status).toBe('success');
    expect(answer.json.username).toBe(DEMO.mobile);
    const read = await readLoanTypes(DEMO.mobile, answer.json.token as string);
    expect(read.json.status).toBe('success');
  });

  it('should decode form escapes (+ and %XX)', async () => {
    const answer = await postForm(
      emulator,
      `username=${DEMO.username}&password=${encodeURIComponent(DEMO.password)}`,
    );
    expect(answer.json.status).toBe('success');
    const spaced = await postForm(emulator, `username=+${DEMO.username}&password=${DEMO.password}`);
    expect(spaced.json.status).toBe('error');
  });

  it.each([
    ['a wrong password', `username=${DEMO.username}&password=bad`, /credentials/],
    ['a missing password', `username=${DEMO.username}`, /required/],
    ['a malformed escape', `username=%E0%A4%A&password=x`, /malformed form body/],
    ['an empty body', '', /required/],
  ])('should answer status error for %s', async (_, body, message) => {
    const answer = await postForm(emulator, body);
    expect(answer.json.status).toBe('error');
    expect(answer.json.message).toMatch(message);
  });

  it('should not accept the mobile number on the JSON login (the document names a username only)', async () => {
    const answer = await postJson(emulator, '/v1/user/login', {
      username: DEMO.mobile,
      password: DEMO.password,
    });
    expect(answer.json.status).toBe('error');
  });
});

describe('form login in the cookie dialect (EMULATOR_FORM_LOGIN_SESSION=cookie)', () => {
  let servlet: RunningEmulator;
  beforeAll(async () => {
    servlet = await startEmulator({
      port: 0,
      formLoginSession: 'cookie',
      tokenTtlSeconds: 60,
      now: () => clock,
    });
  });
  afterAll(() => servlet.close());

  async function formLogin(): Promise<{ json: Record<string, unknown>; setCookie: string | null }> {
    const response = await fetch(`${servlet.url}/app/login.jsp`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: DEMO.mobile, password: DEMO.password }).toString(),
    });
    return {
      json: (await response.json()) as Record<string, unknown>,
      setCookie: response.headers.get('set-cookie'),
    };
  }

  /** A getAll as a servlet session's browser would send it: the cookie, and no apiToken unless given. */
  async function readWith(cookie: string, apiToken?: string): Promise<Record<string, unknown>> {
    const query = new URLSearchParams({
      callback: 'cb',
      username: DEMO.mobile,
      applicationCode: DEMO.applicationCode,
      objectName: 'com.example.LoanType',
      pageSize: '1',
      ...(apiToken === undefined ? {} : { apiToken }),
    });
    const response = await fetch(`${servlet.url}/studio/jsonp/getAll?${query.toString()}`, {
      headers: { cookie },
    });
    const body = await response.text();
    return JSON.parse(body.slice('cb('.length, -');'.length)) as Record<string, unknown>;
  }

  it('should answer no token but a JSESSIONID cookie, and accept it as the session whatever the apiToken', async () => {
    const { json, setCookie } = await formLogin();
    expect(json).toMatchObject({ status: 'success', username: DEMO.mobile });
    expect(json).not.toHaveProperty('token');
    expect(setCookie).toMatch(/^JSESSIONID=[\w-]{20,}; Path=\/; HttpOnly$/);
    const cookie = `theme=dark; ${setCookie?.split(';')[0] ?? ''}`;
    expect((await readWith(cookie)).status).toBe('success');
    expect((await readWith(cookie, 'anything')).status).toBe('success');
    // A session id is no apiToken.
    const sessionId = setCookie?.split(';')[0]?.split('=')[1] ?? '';
    expect((await readWith('theme=dark', sessionId)).message).toMatch(/invalid token/);
  });

  it('should say the session is no good once it expires, or for one it never opened', async () => {
    const { setCookie } = await formLogin();
    const cookie = setCookie?.split(';')[0] ?? '';
    expect(await readWith('JSESSIONID=made-up')).toMatchObject({
      status: 'error',
      message: 'invalid session: log in again',
    });
    clock += 61_000;
    expect(await readWith(cookie)).toMatchObject({
      status: 'error',
      message: 'session expired: log in again',
    });
  });
});
