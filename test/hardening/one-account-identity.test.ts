/**
 * One account is one user, whichever name it logs in with. The emulator's demo account has a username
 * (`demo`, for the JSON login) and a registered mobile number (`5550100`, which the form login accepts and
 * echoes). Before the canonical user key (`src/auth/user-key.ts`), a session's user was the name its login
 * returned: `demo` by JSON and `5550100` by form were two users, so one account had two breaker votes (an
 * attacker's own failing reads opened the breaker for everyone: 74 of a victim's 118 reads `circuit_open`),
 * two answer-byte shares and two bulkhead shares. Here both sessions of the account draw on one share and
 * cast one vote, while another account still has its own (each control would fail if the key were the name).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import { answerSummary } from '../support/answer-summary.ts';
import { bearerLogin } from '../support/bearer-login.ts';
import { LOAN_TYPES, codesOf, postGraphql, type GraphqlAnswer } from '../support/post-graphql.ts';
import { startChokingLoginProxy, type ChokingLoginProxy } from '../support/servers/choking-login-proxy.ts';
import { startLargeAnswerProxy, type LargeAnswerProxy } from '../support/servers/large-answer-proxy.ts';
import { MiB } from '../support/mib.ts';

const LOGIN = `mutation Login($username: String!, $password: String!, $method: LoginMethod) {
  login(username: $username, password: $password, method: $method) { token }
}`;
/** A read the choking proxy answers with HTTP 500: this user's own input makes the upstream fail. */
const CHOKING = 'query { objects(objectName: "com.example.Choking", first: 3) { totalCount } }';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator.close();
});

/** Logs in through `gw` and answers the `Authorization` header of the session. */
async function login(
  gw: TestGateway,
  username: string,
  password: string,
  method: 'JSON' | 'FORM' = 'JSON',
): Promise<Record<string, string>> {
  return bearerLogin(gw.graphqlUrl, { username, password, method }, LOGIN);
}

/** The demo account twice: its username by the JSON login, its mobile number by the form login. */
const demoByName = (gw: TestGateway) => login(gw, 'demo', 'demo-password', 'JSON');
const demoByMobile = (gw: TestGateway) => login(gw, '5550100', 'demo-password', 'FORM');

function summary(answer: GraphqlAnswer): string {
  return answerSummary(answer, ['reason']);
}

async function breakerStates(gw: TestGateway): Promise<string[]> {
  const ready = (await (await fetch(`${gw.baseUrl}/readyz`)).json()) as {
    upstream: { breakers: Record<string, string> };
  };
  return Object.values(ready.upstream.breakers);
}

describe('the breaker’s votes', () => {
  let proxy: ChokingLoginProxy;
  let gw: TestGateway;
  let control: TestGateway;

  beforeAll(async () => {
    proxy = await startChokingLoginProxy(emulator.url, ['demo', 'ops', 'admin'], 'Choking');
    // Default breaker settings: 20 calls in 10 s, more than half of them sick, from 2 users.
    gw = await startGateway({ upstreamUrl: proxy.url });
    control = await startGateway({ upstreamUrl: proxy.url });
  });
  afterAll(async () => {
    await gw.close();
    await control.close();
    await proxy.close();
  });

  /** 12 rounds: each failing session reads what the upstream chokes on, the victim reads beside it. */
  async function rounds(
    target: TestGateway,
    failing: Record<string, string>[],
    victim: Record<string, string>,
  ) {
    const own: GraphqlAnswer[] = [];
    const victimAnswers: GraphqlAnswer[] = [];
    for (let round = 0; round < 12; round++) {
      for (const session of failing) own.push(await postGraphql(target.graphqlUrl, CHOKING, {}, session));
      victimAnswers.push(await postGraphql(target.graphqlUrl, LOAN_TYPES, {}, victim));
    }
    return { own, victimAnswers };
  }

  it('should not open for everyone when one account fails under its username and its mobile number', async () => {
    const failing = [await demoByName(gw), await demoByMobile(gw)];
    const victim = await login(gw, 'admin', 'admin-password');
    const { own, victimAnswers } = await rounds(gw, failing, victim);

    // Every failing read reached the upstream and was answered as its own failure, never `circuit_open`.
    for (const answer of own) expect(codesOf(answer)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(own.map((answer) => JSON.stringify(answer.errors)).join()).not.toMatch(/circuit/);
    // The victim, another account, was served throughout, and the breaker is closed.
    expect(victimAnswers.map(summary)).toEqual(victimAnswers.map(() => 'data'));
    expect((await breakerStates(gw)).every((state) => state === 'closed')).toBe(true);
  });

  it('should still count another account as a second vote (control)', async () => {
    const failing = [await demoByName(control), await login(control, 'ops', 'ops-password')];
    const victim = await login(control, 'admin', 'admin-password');
    const { own, victimAnswers } = await rounds(control, failing, victim);

    // Two accounts whose calls fail are a sick upstream: the breaker opened and failed fast.
    const answers = [...own, ...victimAnswers].map((answer) => JSON.stringify(answer.errors ?? null));
    expect(answers.some((answer) => answer.includes('circuit'))).toBe(true);
    expect(await breakerStates(control)).toContain('open');
  });
});

describe('the shares of the upstream', () => {
  let proxy: LargeAnswerProxy;
  /** The smallest answer-byte share a user may have (8 MiB + 64 KiB): one 6 MiB answer fits, two do not. */
  let bytes: TestGateway;
  /** One call in flight per user, none waiting. */
  let slots: TestGateway;

  beforeAll(async () => {
    // Reads of these names are answered 6 MiB, slowly: each stays in flight while the other is sent.
    proxy = await startLargeAnswerProxy(emulator.url, {
      usernames: ['demo', '5550100', 'ops'],
      bytes: 6 * MiB,
      everyMillis: 10,
    });
    bytes = await startGateway({
      upstreamUrl: proxy.url,
      env: { UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER: String(8 * MiB + 64 * 1024) },
    });
    slots = await startGateway({
      upstreamUrl: proxy.url,
      env: { UPSTREAM_MAX_CONCURRENT_PER_SESSION: '1', UPSTREAM_MAX_QUEUED_PER_SESSION: '0' },
    });
  });
  afterAll(async () => {
    await bytes.close();
    await slots.close();
    await proxy.close();
  });

  /** One read of each session, sent together. */
  async function together(target: TestGateway, sessions: Record<string, string>[]): Promise<string[]> {
    const answers = await Promise.all(
      sessions.map((session) => postGraphql(target.graphqlUrl, LOAN_TYPES, {}, session)),
    );
    return answers.map(summary).sort();
  }

  it('should hold both names of one account to one answer-byte share, and give another account its own', async () => {
    const byName = await demoByName(bytes);
    const byMobile = await demoByMobile(bytes);
    // 12 MiB of one account's answers at once: one is cut as that account's share.
    expect(await together(bytes, [byName, byMobile])).toEqual(['TOO_MANY_REQUESTS/answer_share', 'data']);
    // Control: the same 12 MiB split between two accounts is served.
    const other = await login(bytes, 'ops', 'ops-password');
    expect(await together(bytes, [byName, other])).toEqual(['data', 'data']);
  });

  it('should hold both names of one account to one bulkhead share, and give another account its own', async () => {
    const byName = await demoByName(slots);
    const byMobile = await demoByMobile(slots);
    expect(await together(slots, [byName, byMobile])).toEqual([
      'TOO_MANY_REQUESTS/session_overloaded',
      'data',
    ]);
    const other = await login(slots, 'ops', 'ops-password');
    expect(await together(slots, [byName, other])).toEqual(['data', 'data']);
  });
});

describe('learning a JSON login’s account', () => {
  it('should ask the form login once per name, and log in by JSON under the username as before', async () => {
    const gw = await startGateway({ upstreamUrl: emulator.url });
    try {
      emulator.resetStats();
      for (let i = 0; i < 3; i++) await demoByName(gw);
      // The first login learnt the account; the others found the link.
      expect(emulator.stats()).toMatchObject({ loginJson: 3, loginForm: 1 });
      // The session reads as before.
      const read = await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, await demoByName(gw));
      expect(summary(read)).toBe('data');
    } finally {
      await gw.close();
    }
  });
});
