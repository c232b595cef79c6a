/**
 * An anonymous caller cannot open the shared breaker. The upstream answers HTTP 500 (Tomcat's error page)
 * to a login of any name it does not know, as a Java service does for input it chokes on; an attacker with
 * no account sends 48 logins with invented usernames. Before the breaker counted votes by accepted
 * identity, each invented name was a "different user", and the breaker opened for every tenant. Now the
 * logins are one source, and a logged-in user's reads are served throughout.
 *
 * Nor can logins make up the second of the breaker's two votes. When they counted by client network
 * (/24), logins from two networks were two votes, and one network's logins plus any one user's unrelated
 * failure in the window were two: either opened the breaker for everyone. Now all logins together are one
 * source, which counts only where one source is enough; the second vote must be a second accepted user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChokingLoginProxy, type ChokingLoginProxy } from '../support/servers/choking-login-proxy.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import { LOAN_TYPES, LOGIN, codesOf, loginDemo, postGraphql } from '../support/post-graphql.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const ATTACK_LOGINS = 48;
const { emulator } = useEmulator();
let proxy: ChokingLoginProxy;
let gw: TestGateway;
let victim: Record<string, string>;

beforeAll(async () => {
  proxy = await startChokingLoginProxy(emulator.url, ['demo']);
  // The breaker's settings are the defaults: 20 calls in 10 s, half of them sick, from 2 sources.
  gw = await startGateway({ upstreamUrl: proxy.url });
  victim = { authorization: `Bearer ${await loginDemo(gw.graphqlUrl)}` };
});
afterAll(async () => {
  await gw.close();
  await proxy.close();
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

describe('logins from two networks beside one real user’s failure', () => {
  let twoNetworks: ChokingLoginProxy;
  let behindProxy: TestGateway;

  beforeAll(async () => {
    // The real user `admin` reads an object type the upstream answers 500 to.
    twoNetworks = await startChokingLoginProxy(emulator.url, ['demo', 'admin'], 'Choking');
    // Client addresses come from X-Forwarded-For, as behind an ingress: the attacker varies its network.
    behindProxy = await startGateway({ upstreamUrl: twoNetworks.url, env: { TRUSTED_PROXIES: 'loopback' } });
  });
  afterAll(async () => {
    await behindProxy.close();
    await twoNetworks.close();
  });

  const loginAs = async (username: string) => {
    const answer = await postGraphql(behindProxy.graphqlUrl, LOGIN, {
      username,
      password: `${username}-password`,
    });
    const token = (answer.data?.login as { token?: string } | undefined)?.token;
    if (token === undefined) throw new Error(`login failed: ${JSON.stringify(answer.errors)}`);
    return { authorization: `Bearer ${token}` };
  };
  const loginFrom = (network: string, i: number) =>
    postGraphql(
      behindProxy.graphqlUrl,
      LOGIN,
      { username: `invented-${network}-${i}-${Date.now()}`, password: 'x' },
      { 'x-forwarded-for': `${network}.${(i % 200) + 1}` },
    );

  it('should keep the breaker closed and serve another user', async () => {
    const served = await loginAs('demo');
    const failing = await loginAs('admin');
    const attacks: Awaited<ReturnType<typeof loginFrom>>[] = [];
    const reads: ReturnType<typeof postGraphql>[] = [];
    // 24 logins from each of two /24s, eight at a time, alternating networks; the real user's failing
    // call in the middle, and a read of another user beside each batch.
    for (let batch = 0; batch < ATTACK_LOGINS / 8; batch++) {
      const network = batch % 2 === 0 ? '203.0.113' : '198.51.100';
      reads.push(postGraphql(behindProxy.graphqlUrl, LOAN_TYPES, {}, served));
      if (batch === 3) {
        const own = await postGraphql(
          behindProxy.graphqlUrl,
          'query { objects(objectName: "com.example.Choking") { totalCount } }',
          {},
          failing,
        );
        expect(codesOf(own)).toEqual(['UPSTREAM_UNAVAILABLE']);
        expect(JSON.stringify(own.errors)).not.toMatch(/circuit/);
      }
      attacks.push(
        ...(await Promise.all(Array.from({ length: 8 }, (_unused, i) => loginFrom(network, batch * 8 + i)))),
      );
    }
    expect(twoNetworks.choked()).toBe(ATTACK_LOGINS);
    expect(twoNetworks.chokedOthers()).toBeGreaterThan(0);
    for (const answer of attacks) {
      expect(codesOf(answer)).toEqual(['UPSTREAM_UNAVAILABLE']);
      expect(JSON.stringify(answer.errors)).not.toMatch(/circuit/);
    }
    // Another user is served throughout and afterwards, and no breaker opened.
    const after = await postGraphql(behindProxy.graphqlUrl, LOAN_TYPES, {}, await loginAs('demo'));
    for (const answer of [...(await Promise.all(reads)), after]) {
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.objects).toMatchObject({ totalCount: expect.any(Number) as number });
    }
    const ready = (await (await fetch(`${behindProxy.baseUrl}/readyz`)).json()) as {
      upstream: { breakers: Record<string, string> };
    };
    expect(Object.values(ready.upstream.breakers).every((state) => state === 'closed')).toBe(true);
  });
});
