/**
 * A form login that answers no token but a servlet session cookie (`EMULATOR_FORM_LOGIN_SESSION=cookie`): a user
 * with only a mobile number logs in through the gateway, reads, saves, updates and logs out, the gateway carrying
 * the upstream's `JSESSIONID` sealed in its own token. What travels upstream is watched through a proxy: every
 * read and write of a session carries that session's cookie and no `apiToken`; after logout or the upstream
 * session's end, nothing more does. The cookie is in no answer, log line or metric, and not in the clear in the
 * gateway's token.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, EMULATOR_USERS, startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { startHarness, useHarness, type Harness } from '../support/gateway-harness.ts';
import { errorCodes, firstError } from '../support/graphql-errors.ts';
import {
  LoginDocument,
  MeDocument,
  MetadataDocument,
  ObjectDocument,
  ObjectsDocument,
  SaveDocument,
  UpdateDocument,
} from '../support/operations.ts';
import { startNotingProxy } from '../support/servers/forward-request.ts';
import type { Listening } from '../support/servers/listen-on-loopback.ts';

const LOAN = 'com.example.LoanType';
const TTL_SECONDS = 3600;
const DEMO_USER_ID = EMULATOR_USERS.find((user) => user.username === DEMO.username)?.userId;

/** One upstream request as the proxy saw it. */
interface Sent {
  path: string;
  cookie: string | undefined;
  apiToken: string | null;
}

let skewMillis = 0;
let emulator: RunningEmulator;
let proxy: Listening;
let h: Harness;
const sent: Sent[] = [];
const answers: string[] = [];
const logStream = new PassThrough();
const logLines: string[] = [];
logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));

function note(req: IncomingMessage): void {
  const url = new URL(req.url ?? '/', 'http://upstream');
  sent.push({ path: url.pathname, cookie: req.headers.cookie, apiToken: url.searchParams.get('apiToken') });
}

/** The upstream calls after the `from`-th, logins excluded. */
const sessionCalls = (from = 0) => sent.slice(from).filter((call) => call.path.startsWith('/studio/'));

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    formLoginSession: 'cookie',
    tokenTtlSeconds: TTL_SECONDS,
    now: () => Date.now() + skewMillis,
  });
  proxy = await startNotingProxy(emulator.url, note);
  h = await startHarness({
    upstream: { ...emulator, url: proxy.url },
    env: { LOGIN_METHOD: 'FORM', LOG_LEVEL: 'trace' },
    logStream,
  });
});

afterAll(async () => {
  await h.close();
  await proxy.close();
  await emulator.close();
});

beforeEach(() => {
  skewMillis = 0;
});

async function login(username: string = DEMO.mobile): Promise<string> {
  const result = await h.client().mutate({
    mutation: LoginDocument,
    variables: { username, password: DEMO.password, method: 'FORM' },
  });
  answers.push(JSON.stringify(result));
  const token = result.data?.login.token;
  if (token === undefined) throw new Error(`login failed: ${JSON.stringify(result.error)}`);
  return token;
}

/** The cookie the gateway sealed for `token` (read with the gateway's own key, as only the gateway can). */
async function cookieOf(token: string): Promise<string> {
  const claims = await h.gateway.services.sessions.open(token);
  if (claims?.sessionCookie === undefined) throw new Error('the session carries no cookie');
  return claims.sessionCookie;
}

async function readLoans(token: string, first = 3) {
  const result = await h
    .client(token)
    .query({ query: ObjectsDocument, variables: { objectName: LOAN, first } });
  answers.push(JSON.stringify(result));
  return result;
}

describe('a form login that answers a session cookie', () => {
  it('should open a session for a user who logs in with a mobile number', async () => {
    const result = await h.client().mutate({
      mutation: LoginDocument,
      variables: { username: DEMO.mobile, password: DEMO.password, method: 'FORM' },
    });
    answers.push(JSON.stringify(result));
    expect(result.error).toBeUndefined();
    // The upstream's echo and its user id, kept in the session.
    expect(result.data?.login.user).toMatchObject({ id: DEMO_USER_ID, username: DEMO.mobile });
    const token = result.data?.login.token ?? '';
    const me = await h.client(token).query({ query: MeDocument });
    expect(me.data?.me).toMatchObject({
      username: DEMO.mobile,
      userId: DEMO_USER_ID,
      organizationCode: 'acme',
    });
    expect(await cookieOf(token)).toMatch(/^JSESSIONID=[\w-]+$/);
  });

  it('should read, save and update with the cookie on every upstream call and no apiToken', async () => {
    const token = await login();
    const cookie = await cookieOf(token);
    const from = sent.length;

    const page = await readLoans(token);
    expect(page.error).toBeUndefined();
    expect(page.data?.objects.nodes.length).toBe(3);
    const id = page.data?.objects.nodes[0]?.id ?? '';
    const one = await h.client(token).query({ query: ObjectDocument, variables: { objectName: LOAN, id } });
    expect(one.data?.object?.id).toBe(id);
    const metadata = await h.client(token).query({ query: MetadataDocument, variables: { objectId: id } });
    expect(metadata.error).toBeUndefined();
    expect(metadata.data?.metadata?.objectId).toBe(id);

    const saved = await h.client(token).mutate({
      mutation: SaveDocument,
      variables: { objectName: LOAN, data: { name: 'Cookie loan', rate: 3 } },
    });
    expect(saved.error).toBeUndefined();
    const savedId = saved.data?.saveObject.id ?? '';
    expect(saved.data?.saveObject.object?.data).toMatchObject({ name: 'Cookie loan', rate: 3 });
    const updated = await h.client(token).mutate({
      mutation: UpdateDocument,
      variables: { id: savedId, objectName: LOAN, data: { rate: 4 } },
    });
    expect(updated.error).toBeUndefined();
    expect(updated.data?.updateObject.updatedFields).toEqual({ rate: 4 });
    expect(updated.data?.updateObject.object?.data).toMatchObject({ rate: 4 });
    answers.push(JSON.stringify([one, metadata, saved, updated]));

    const calls = sessionCalls(from);
    expect(calls.map((call) => call.path)).toEqual(
      expect.arrayContaining([
        '/studio/jsonp/getAll',
        `/studio/jsonp/metadata/get/${id}/`,
        '/studio/jsonp/save',
        `/studio/jsonp/update/${savedId}`,
      ]),
    );
    for (const call of calls) {
      expect(call.cookie, call.path).toBe(cookie);
      expect(call.apiToken, call.path).toBeNull();
    }
  });

  it('should never let two sessions share a cookie or a read', async () => {
    // The same user twice: the same username, application and organization, only the cookie differs.
    const [first, second] = [await login(), await login()];
    const [firstCookie, secondCookie] = [await cookieOf(first), await cookieOf(second)];
    expect(firstCookie).not.toBe(secondCookie);
    const from = sent.length;
    const [a, b] = await Promise.all([readLoans(first, 5), readLoans(second, 5)]);
    expect(a.data?.objects.totalCount).toBe(b.data?.objects.totalCount);
    const reads = sessionCalls(from).filter((call) => call.path === '/studio/jsonp/getAll');
    expect(reads.map((call) => call.cookie).sort()).toEqual([firstCookie, secondCookie].sort());
  });

  it('should forget the cookie at logout: the token is refused and nothing more goes upstream', async () => {
    const token = await login();
    expect((await readLoans(token)).error).toBeUndefined();
    const logout = await h.post('mutation { logout }', {}, { authorization: `Bearer ${token}` });
    expect(logout.data).toEqual({ logout: true });
    const from = sent.length;
    const after = await readLoans(token);
    expect(firstError(after.error).extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'revoked' });
    expect(sessionCalls(from)).toEqual([]);
  });

  it("should end the session when the upstream's session expires, as with a token", async () => {
    const token = await login();
    expect((await readLoans(token)).error).toBeUndefined();
    skewMillis = (TTL_SECONDS + 60) * 1000;
    const expired = await readLoans(token);
    expect(firstError(expired.error).extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      reason: 'rejected_by_upstream',
    });
    // Dead for good: the next read asks the upstream nothing.
    const from = sent.length;
    expect(errorCodes((await readLoans(token)).error)).toEqual(['UNAUTHENTICATED']);
    expect(sessionCalls(from)).toEqual([]);
  });
});

describe('where the cookie never shows', () => {
  it('should keep the cookie out of the gateway token in the clear', async () => {
    const token = await login();
    const value = (await cookieOf(token)).split('=')[1] ?? '';
    expect(value.length).toBeGreaterThan(10);
    // Every part of the JWE, as text and decoded from base64url: none holds the value.
    for (const part of token.split('.')) {
      expect(part).not.toContain(value);
      expect(Buffer.from(part, 'base64url').toString('latin1')).not.toContain(value);
    }
    expect(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'))).toEqual({
      alg: 'dir',
      enc: 'A256GCM',
    });
  });

  it('should keep every cookie out of answers, errors, log lines and metrics', async () => {
    const token = await login();
    // Errors too: an unknown type, then answers the gateway cannot read.
    answers.push(
      JSON.stringify(
        await h
          .client(token)
          .query({ query: ObjectsDocument, variables: { objectName: 'com.example.Nope' } }),
      ),
    );
    emulator.setFaults({ every: 1, mode: 'garbage', operations: ['getAll'] });
    try {
      answers.push(JSON.stringify(await readLoans(token)));
    } finally {
      emulator.setFaults(undefined);
    }
    const metrics = await (await h.fetch('/metrics')).text();
    const cookies = new Set(sent.map((call) => call.cookie).filter((c): c is string => c !== undefined));
    expect(cookies.size).toBeGreaterThan(3);
    expect(logLines.length).toBeGreaterThan(0);
    const everything = [...answers, ...logLines, metrics].join('\n');
    for (const cookie of cookies) {
      const value = cookie.slice(cookie.indexOf('=') + 1);
      expect(everything).not.toContain(value);
    }
  });
});

describe('a form login that answers neither a token nor a session cookie', () => {
  const bare = useHarness({ emulator: { formLoginToken: false } });

  it('should refuse the login as UPSTREAM_DIALECT_MISMATCH naming login_session, blamed on the gateway', async () => {
    const result = await bare.client().mutate({
      mutation: LoginDocument,
      variables: { username: DEMO.mobile, password: DEMO.password, method: 'FORM' },
    });
    const refusal = firstError(result.error);
    expect(refusal.extensions).toMatchObject({
      code: 'UPSTREAM_DIALECT_MISMATCH',
      blame: 'gateway',
      assumption: 'login_session',
    });
    expect(refusal.message).toContain('no token and no session cookie');
  });
});
