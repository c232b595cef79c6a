/**
 * The client's side of a cookie session: the form login hands back the cookie its answer set (under a base
 * address with a path prefix, the cookie must cover the prefixed calls); the session's calls carry it as
 * `Cookie` with no `apiToken`; an upstream message quoting the session id is masked.
 */
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { isUpstreamError } from '../../src/errors/upstream-error.ts';
import type { UpstreamCredentials } from '../../src/upstream/client/types.ts';
import { clientAt, failureOf } from '../support/client-for.ts';
import { demoCredentials } from '../support/demo-credentials.ts';

const ORIGIN = 'http://upstream.test';
const SESSION_ID = 'A1B2C3D4E5F6cookieValue';
const SESSION: UpstreamCredentials = {
  ...demoCredentials('5550100', ''),
  sessionCookie: `JSESSIONID=${SESSION_ID}`,
};

let agent: MockAgent;
afterEach(async () => {
  await agent.close();
});

function upstream(): ReturnType<MockAgent['get']> {
  agent = new MockAgent();
  agent.disableNetConnect();
  return agent.get(ORIGIN);
}

/** A call the upstream received: its path, its `Cookie` header and its JSON body, if any. */
interface SeenCall {
  path: string;
  cookie: string | undefined;
  body: Record<string, unknown> | undefined;
}

/** Answers every `method` call under `prefix` 200 with `answer(call)`; the calls, in the order they came. */
function answerCalls(method: 'GET' | 'POST', prefix: string, answer: (call: SeenCall) => string): SeenCall[] {
  const seen: SeenCall[] = [];
  upstream()
    .intercept({ path: (path) => path.startsWith(prefix), method })
    .reply((options) => {
      const call: SeenCall = {
        path: options.path,
        cookie: (options.headers as Record<string, string | undefined>).cookie,
        body:
          typeof options.body === 'string'
            ? (JSON.parse(options.body) as Record<string, unknown>)
            : undefined,
      };
      seen.push(call);
      return { statusCode: 200, data: answer(call) };
    });
  return seen;
}

const FORM_ANSWER = { status: 'success', userId: 'u1', username: '5550100', message: 'ok' };

describe('the form login', () => {
  it.each([
    ['the context root', `${ORIGIN}/ctx`, 'Path=/ctx', 'JSESSIONID=s1'],
    ['a path that misses the prefix', `${ORIGIN}/ctx`, 'Path=/other', undefined],
  ])(
    'should carry a cookie set for %s only when it covers the calls',
    async (_case, base, path, expected) => {
      const pool = upstream();
      pool
        .intercept({ path: '/ctx/app/login.jsp', method: 'POST' })
        .reply(200, FORM_ANSWER, { headers: { 'set-cookie': `JSESSIONID=s1; ${path}; HttpOnly` } });
      const client = clientAt(base, { dispatcher: agent });
      if (expected === undefined) {
        const failure = await failureOf(client.loginForm('5550100', 'pw'));
        expect(isUpstreamError(failure) && failure.kind).toBe('dialect_mismatch');
      } else {
        expect((await client.loginForm('5550100', 'pw')).sessionCookie).toBe(expected);
      }
      await client.close();
    },
  );

  it('should carry no cookie when the login answered a token', async () => {
    const pool = upstream();
    pool
      .intercept({ path: '/app/login.jsp', method: 'POST' })
      .reply(200, { ...FORM_ANSWER, token: 't' }, { headers: { 'set-cookie': 'JSESSIONID=s1; Path=/' } });
    const client = clientAt(ORIGIN, { dispatcher: agent });
    expect(await client.loginForm('5550100', 'pw')).toMatchObject({ token: 't', sessionCookie: undefined });
    await client.close();
  });
});

describe("a cookie session's calls", () => {
  it('should send the cookie and no apiToken, and mask the session id in an upstream message', async () => {
    const seen = answerCalls('GET', '/studio/jsonp/getAll', (call) => {
      const callback = new URL(call.path, ORIGIN).searchParams.get('callback') ?? '';
      return `${callback}(${JSON.stringify({ status: 'error', message: `session ${SESSION_ID} expired` })});`;
    });
    const client = clientAt(ORIGIN, { dispatcher: agent });
    const failure = await failureOf(client.getAll(SESSION, 'com.example.Order', [], 10, 0));
    expect(isUpstreamError(failure) && failure.kind).toBe('unauthenticated');
    expect(JSON.stringify(isUpstreamError(failure) ? failure.upstreamMessage : '')).not.toContain(SESSION_ID);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.cookie).toBe(`JSESSIONID=${SESSION_ID}`);
    expect(new URL(seen[0]?.path ?? '', ORIGIN).searchParams.has('apiToken')).toBe(false);
    await client.close();
  });

  it('should save with the cookie and no apiToken in the body', async () => {
    const seen = answerCalls('POST', '/studio/jsonp/save', (call) => {
      const answer = { status: 'success', message: 'object created', savedObjectId: 'n1' };
      return `${String(call.body?.callback)}(${JSON.stringify(answer)});`;
    });
    const client = clientAt(ORIGIN, { dispatcher: agent });
    expect((await client.save(SESSION, 'com.example.Order', { total: 1 })).savedObjectId).toBe('n1');
    expect(seen[0]?.cookie).toBe(`JSESSIONID=${SESSION_ID}`);
    expect(seen[0]?.body).not.toHaveProperty('apiToken');
    expect(seen[0]?.body).toMatchObject({ applicationCode: 'demo', organizationCode: 'acme' });
    await client.close();
  });
});
