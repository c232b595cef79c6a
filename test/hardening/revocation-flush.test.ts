/**
 * The logout list cannot be flushed. Without Redis it used to keep 100,000 revocations, oldest dropped
 * first: one account logging in and out about 200 times a second pushed a victim's logout out in under ten
 * minutes, and the stolen token opened again. Here the victim logs out first; then an attacker with an
 * ordinary account logs in and out through the gateway, and 100,000 more of its logouts (200 a second
 * for 500 s of issue times) go straight to the gateway's own revocation list, as the HTTP path would be too
 * slow on a loaded machine. The victim's stolen token stays refused, the attacker's own older sessions
 * end together (the documented answer: `UNAUTHENTICATED`, `reason: revoked`), a fresh login of the
 * attacker and the victim's new session are served, and the list holds a bounded number of entries.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { SETTING_DEFAULTS } from '../../src/config/defaults.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { LOAN_TYPES, LOGIN, type GraphqlAnswer } from '../support/post-graphql.ts';

const h = useHarness({ listen: false });
const LOGOUT = 'mutation { logout }';
const THROUGH_THE_GATEWAY = 300;
const STRAIGHT_TO_THE_LIST = 100_000;
const LOGINS_PER_SECOND = 200;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function login(username: string): Promise<string> {
  const answer = await h.post(LOGIN, { username, password: `${username}-password` });
  const token = (answer.data?.login as { token?: string } | undefined)?.token;
  if (token === undefined) throw new Error(`login failed: ${JSON.stringify(answer.errors)}`);
  return token;
}

function refusal(answer: GraphqlAnswer): unknown {
  return answer.errors?.[0]?.extensions;
}

it('should keep refusing a victim’s logged-out token after 100,000 logouts of another account', async () => {
  const stolen = await login('demo');
  expect((await h.post(LOGOUT, {}, bearer(stolen))).data).toEqual({ logout: true });
  const attackerEarlier = await login('admin');
  // Issue times are in seconds: the flood starts in a later one.
  await sleep(1_100);

  for (let i = 0; i < THROUGH_THE_GATEWAY; i++) {
    const token = await login('admin');
    expect((await h.post(LOGOUT, {}, bearer(token))).data).toEqual({ logout: true });
  }
  const revocations = h.gateway.services.revocations;
  // The attacker's account as its sessions carry it (learnt at login): the list counts by account.
  const attacker = await h.gateway.services.sessions.open(attackerEarlier);
  if (attacker === null) throw new Error('the attacker session did not open');
  const heapBefore = process.memoryUsage().heapUsed;
  const startSeconds = Math.floor(Date.now() / 1000) - STRAIGHT_TO_THE_LIST / LOGINS_PER_SECOND;
  for (let i = 0; i < STRAIGHT_TO_THE_LIST; i++) {
    const issuedAtSeconds = startSeconds + Math.floor(i / LOGINS_PER_SECOND);
    await revocations.revoke(
      {
        tokenId: randomUUID(),
        username: 'admin',
        userId: attacker.userId,
        account: attacker.account,
        applicationCode: 'demo',
        issuedAtSeconds,
        expiresAtSeconds: issuedAtSeconds + SETTING_DEFAULTS.SESSION_TTL_SECONDS,
      },
      'revoked',
    );
  }
  // Bounded by the per-user share, not by the logouts: the attacker's entries were folded.
  expect(revocations.localSize()).toBeLessThanOrEqual(SETTING_DEFAULTS.SESSION_REVOCATIONS_PER_USER + 2);
  expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);

  // The victim's logout was never forgotten.
  const replay = await h.post(LOAN_TYPES, {}, bearer(stolen));
  expect(replay.data?.objects ?? null).toBeNull();
  expect(refusal(replay)).toEqual({ code: 'UNAUTHENTICATED', reason: 'revoked', blame: 'caller' });
  expect((await h.post('{ me { username } }', {}, bearer(stolen))).data).toEqual({ me: null });

  // The attacker's answer: its sessions from before its flood ended with it; a new login works.
  expect(refusal(await h.post(LOAN_TYPES, {}, bearer(attackerEarlier)))).toEqual({
    code: 'UNAUTHENTICATED',
    reason: 'revoked',
    blame: 'caller',
  });
  const attackerNow = await login('admin');
  expect((await h.post(LOAN_TYPES, {}, bearer(attackerNow))).errors).toBeUndefined();

  // The victim logs in again and is served; so is the process.
  const victimAgain = await login('demo');
  const read = await h.post(LOAN_TYPES, {}, bearer(victimAgain));
  expect(read.errors).toBeUndefined();
  expect(read.data?.objects).toMatchObject({ totalCount: expect.any(Number) as number });
}, 300_000);
