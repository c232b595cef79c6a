/**
 * Login protection behind a Kubernetes Ingress. The browser's address reaches the gateway as the
 * `X-Forwarded-For` of the Ingress controller's pod; with only the sidecar's loopback trusted
 * (`TRUSTED_PROXIES=127.0.0.1,::1`, as once shipped), the gateway took that pod's address as every user's,
 * and a flood of failed logins locked everyone out. With the Ingress controller's pod network among
 * `TRUSTED_PROXIES` (a CIDR, as `deploy/kubernetes/gateway-config.yaml` ships it), each browser counts
 * alone, and a client cannot choose its own address by sending an `X-Forwarded-For`: the gateway takes
 * the rightmost address that no trusted proxy added.
 *
 * "The Ingress" here is a loopback address inside the trusted CIDR (Linux routes all of 127/8 to lo), the
 * real gateway and emulator on loopback ports, the attacker's and the users' addresses in its header.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fetchFrom, type FetchFrom } from '../support/fetch-from.ts';
import { type TestGateway } from '../support/gateway-harness.ts';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { LOGIN, postGraphql } from '../support/post-graphql.ts';

/** The Ingress controller's pod network, as an operator writes it into TRUSTED_PROXIES. */
const INGRESS_NETWORK = '127.0.8.0/24';
/** Two Ingress controller pods inside it, and a pod of the cluster outside it. */
const INGRESS_POD = '127.0.8.10';
const OTHER_INGRESS_POD = '127.0.8.11';
const UNTRUSTED_POD = '127.0.9.10';
const ATTACKER = '198.51.100.66';
const USER = '203.0.113.7';
/** Distinct accounts that fail from one client address before it is blocked (LOGIN_MAX_FAILURES_PER_IP). */
const PER_ADDRESS = 5;

const { gateway } = useGatewayPool({
  env: { LOGIN_MAX_FAILURES_PER_IP: String(PER_ADDRESS), LOGIN_FAILURE_MIN_MS: '0' },
});

const peers = new Map<string, FetchFrom>();
/** A client whose connections leave from `address`. */
function from(address: string): FetchFrom {
  let peer = peers.get(address);
  if (peer === undefined) {
    peer = fetchFrom(address);
    peers.set(address, peer);
  }
  return peer;
}
afterAll(async () => {
  await Promise.all([...peers.values()].map((peer) => peer.close()));
});

/** A login sent by `peer` with `forwardedFor` as its X-Forwarded-For; answers the error's extensions. */
async function login(
  gw: TestGateway,
  peer: string,
  forwardedFor: string,
  username: string,
  password: string,
): Promise<{ token?: string; retryAfter?: unknown; code?: unknown }> {
  const answer = await postGraphql(
    gw.graphqlUrl,
    LOGIN,
    { username, password },
    { 'x-forwarded-for': forwardedFor },
    from(peer).fetch,
  );
  const token = (answer.data?.login as { token?: string } | null | undefined)?.token;
  if (token !== undefined) return { token };
  return {
    code: answer.errors?.[0]?.extensions?.code,
    retryAfter: answer.errors?.[0]?.extensions?.retryAfter,
  };
}

/** Fails logins for invented accounts, each from `forwardedFor` through `peer`, until one is blocked. */
async function floodUntilBlocked(gw: TestGateway, peer: string, forwardedFor: (i: number) => string) {
  const answers = [];
  for (let i = 0; i <= PER_ADDRESS; i++) {
    answers.push(await login(gw, peer, forwardedFor(i), `invented-${i}`, 'guess'));
  }
  return answers;
}

describe('behind an Ingress, with its pod network among TRUSTED_PROXIES', () => {
  const trusted = `127.0.0.1,::1,${INGRESS_NETWORK}`;

  it('should block the flooding address, and still let another user log in through the same Ingress', async () => {
    const gw = await gateway({ TRUSTED_PROXIES: trusted });
    const flood = await floodUntilBlocked(gw, INGRESS_POD, () => ATTACKER);
    expect(flood.at(-1)).toMatchObject({ code: 'UNAUTHENTICATED', retryAfter: expect.any(Number) });
    // The attacker is blocked even on a real account with the right password…
    expect(await login(gw, INGRESS_POD, ATTACKER, 'demo', 'demo-password')).toMatchObject({
      retryAfter: expect.any(Number),
    });
    // …and the block follows the attacker's address, not the Ingress pod it came through.
    expect(await login(gw, OTHER_INGRESS_POD, ATTACKER, 'demo', 'demo-password')).toMatchObject({
      retryAfter: expect.any(Number),
    });
    // Another browser behind the same Ingress pod logs in.
    expect(await login(gw, INGRESS_POD, USER, 'demo', 'demo-password')).toEqual({
      token: expect.any(String),
    });
  });

  it('should take the rightmost address no trusted proxy added: a forged X-Forwarded-For chooses nothing', async () => {
    const gw = await gateway({ TRUSTED_PROXIES: trusted });
    // The attacker sends its own header naming the user's address (and a trusted-looking hop); the Ingress
    // appends the attacker's real address. The forged entries are left of it and never read.
    const flood = await floodUntilBlocked(gw, INGRESS_POD, (i) => `${USER}, 127.0.8.${100 + i}, ${ATTACKER}`);
    expect(flood.at(-1)).toMatchObject({ retryAfter: expect.any(Number) });
    // Rotating the forged part buys no fresh attempts…
    expect(await login(gw, INGRESS_POD, `192.0.2.1, ${ATTACKER}`, 'demo', 'demo-password')).toMatchObject({
      retryAfter: expect.any(Number),
    });
    // …and the user whose address the attacker wrote was never blocked.
    expect(await login(gw, INGRESS_POD, USER, 'demo', 'demo-password')).toEqual({
      token: expect.any(String),
    });
  });

  it('should ignore the X-Forwarded-For of a peer outside TRUSTED_PROXIES: its own address counts', async () => {
    const gw = await gateway({ TRUSTED_PROXIES: trusted });
    // A pod outside the Ingress network claims a new browser address with every guess.
    const flood = await floodUntilBlocked(gw, UNTRUSTED_POD, (i) => `198.51.100.${i + 1}`);
    expect(flood.at(-1)).toMatchObject({ retryAfter: expect.any(Number) });
    expect(await login(gw, UNTRUSTED_POD, USER, 'demo', 'demo-password')).toMatchObject({
      retryAfter: expect.any(Number),
    });
    // The user, through the real Ingress, is not blocked by it.
    expect(await login(gw, INGRESS_POD, USER, 'demo', 'demo-password')).toEqual({
      token: expect.any(String),
    });
  });
});

describe('behind an Ingress, with only the loopback trusted (the setting this replaces)', () => {
  it('should take the Ingress pod for every user, so that one flood locks everyone out', async () => {
    const gw = await gateway({ TRUSTED_PROXIES: '127.0.0.1,::1' });
    await floodUntilBlocked(gw, INGRESS_POD, () => ATTACKER);
    expect(await login(gw, INGRESS_POD, USER, 'demo', 'demo-password')).toMatchObject({
      retryAfter: expect.any(Number),
    });
  });
});

describe('behind an Ingress and the pod own proxy, as deploy/kubernetes ships it (TRUSTED_OUTER_PROXIES)', () => {
  /** The front-end's proxy in the pod: the direct peer of every browser's request. */
  const POD_PROXY = '127.0.0.1';
  /** Another pod of the Ingress network (a scraper on port 4000) that connects to the gateway itself. */
  const SCRAPER_POD = '127.0.8.20';
  const shipped = { TRUSTED_PROXIES: '127.0.0.1,::1', TRUSTED_OUTER_PROXIES: INGRESS_NETWORK };

  it('should count each browser at its own address through the Ingress and the pod proxy', async () => {
    const gw = await gateway(shipped);
    // The Ingress appended the attacker's address, the pod's proxy the Ingress pod's.
    const flood = await floodUntilBlocked(gw, POD_PROXY, () => `${ATTACKER}, ${INGRESS_POD}`);
    expect(flood.at(-1)).toMatchObject({ code: 'UNAUTHENTICATED', retryAfter: expect.any(Number) });
    expect(
      await login(gw, POD_PROXY, `${ATTACKER}, ${OTHER_INGRESS_POD}`, 'demo', 'demo-password'),
    ).toMatchObject({ retryAfter: expect.any(Number) });
    expect(await login(gw, POD_PROXY, `${USER}, ${INGRESS_POD}`, 'demo', 'demo-password')).toEqual({
      token: expect.any(String),
    });
  });

  it("should not let a pod of the Ingress network that connects directly name a browser's address", async () => {
    const gw = await gateway(shipped);
    // The pod claims the user's address with every guess; it is the direct peer, so it counts as itself.
    const flood = await floodUntilBlocked(gw, SCRAPER_POD, () => USER);
    expect(flood.at(-1)).toMatchObject({ retryAfter: expect.any(Number) });
    expect(await login(gw, POD_PROXY, `${USER}, ${INGRESS_POD}`, 'demo', 'demo-password')).toEqual({
      token: expect.any(String),
    });
  });

  it('should, with the Ingress network in TRUSTED_PROXIES instead, let that pod block the browser (why two lists)', async () => {
    const gw = await gateway({ TRUSTED_PROXIES: `127.0.0.1,::1,${INGRESS_NETWORK}` });
    await floodUntilBlocked(gw, SCRAPER_POD, () => USER);
    expect(await login(gw, POD_PROXY, `${USER}, ${INGRESS_POD}`, 'demo', 'demo-password')).toMatchObject({
      retryAfter: expect.any(Number),
    });
  });
});
