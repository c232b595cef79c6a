/**
 * An anonymous caller cannot open the shared breaker. The upstream answers HTTP 500 (Tomcat's error page)
 * to a login of any name it does not know, as a Java service does for input it chokes on; an attacker with
 * no account sends 48 logins with invented usernames. Before the breaker counted votes by accepted
 * identity, each invented name was a "different user", and the breaker opened for every tenant. Now the
 * logins are one source (their client's network), and a logged-in user's reads are served throughout.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { startChokingLoginProxy, type ChokingLoginProxy } from '../support/servers/choking-login-proxy.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import { LOAN_TYPES, LOGIN, codesOf, loginDemo, postGraphql } from '../support/post-graphql.ts';

const ATTACK_LOGINS = 48;
let emulator: RunningEmulator;
let proxy: ChokingLoginProxy;
let gw: TestGateway;
let victim: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  proxy = await startChokingLoginProxy(emulator.url, ['demo']);
  // The breaker's settings are the defaults: 20 calls in 10 s, half of them sick, from 2 sources.
  gw = await startGateway({ upstreamUrl: proxy.url });
  victim = { authorization: `Bearer ${await loginDemo(gw.graphqlUrl)}` };
});
afterAll(async () => {
  await gw.close();
  await proxy.close();
  await emulator.close();
});

const attackLogin = (i: number) =>
  postGraphql(gw.graphqlUrl, LOGIN, { username: `invented-${i}-${Date.now()}`, password: 'x' });

it('should keep serving a logged-in user while 48 invented-username logins make the upstream answer 500', async () => {
  const victimReads: ReturnType<typeof postGraphql>[] = [];
  const attacks: Awaited<ReturnType<typeof attackLogin>>[] = [];
  // Eight at a time, with one read of the victim's beside each batch.
  for (let batch = 0; batch < ATTACK_LOGINS / 8; batch++) {
    victimReads.push(postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, victim));
    const answers = await Promise.all(Array.from({ length: 8 }, (_unused, i) => attackLogin(batch * 8 + i)));
    attacks.push(...answers);
  }
  // Every invented login reached the upstream and was answered as its own failure, never `circuit_open`:
  // the upstream, not the breaker, answered each one.
  expect(proxy.choked()).toBe(ATTACK_LOGINS);
  for (const answer of attacks) {
    expect(answer.data?.login ?? null).toBeNull();
    expect(codesOf(answer)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(answer.errors?.[0]?.extensions?.blame).toBe('upstream_health');
    expect(JSON.stringify(answer.errors)).not.toMatch(/circuit/);
  }
  // The victim was served meanwhile and still is afterwards.
  const after = await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, victim);
  for (const answer of [...(await Promise.all(victimReads)), after]) {
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.objects).toMatchObject({ totalCount: expect.any(Number) as number });
  }
  // And a new login of a real user still opens a session; the process is alive and ready.
  expect(await loginDemo(gw.graphqlUrl)).toEqual(expect.any(String));
  expect((await fetch(`${gw.baseUrl}/readyz`)).status).toBe(200);
});
