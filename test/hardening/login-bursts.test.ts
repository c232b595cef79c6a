/**
 * Login budgets against guesses that arrive together, on raw sockets: 200 wrong passwords pipelined on one
 * connection, then the right one, and 64 connections from 64 addresses with one guess each, reach the
 * upstream (the emulator's `loginJson` count) at most as often as the budgets allow, in memory and through
 * a real Redis shared by two replicas.
 */
import { describe, expect, it } from 'vitest';
import { type TestGateway } from '../support/gateway-harness.ts';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { LOGIN } from '../support/post-graphql.ts';
import { pipelined, rawJsonPost, type PipelinedResponse } from '../support/raw-http-client.ts';
import { redisFallbacks, useRedisServer } from '../support/servers/redis-server.ts';

// Room for the bursts themselves (connections, and pipelined requests on one): only the login budgets are
// under test here.
const { emulator, gateway } = useGatewayPool({
  env: { MAX_CONNECTIONS_PER_ADDRESS: '256', MAX_PIPELINED_REQUESTS: '1000' },
});

const login = (password: string, username = 'demo') =>
  rawJsonPost('/graphql', { query: LOGIN, variables: { username, password } });
const portOf = (gw: TestGateway) => Number(new URL(gw.graphqlUrl).port);

interface LoginAnswer {
  data?: { login?: { token?: string } | null } | null;
  errors?: { extensions?: { code?: string; retryAfter?: number } }[];
}
const answerOf = (response: PipelinedResponse) => JSON.parse(response.body) as LoginAnswer;
const tokenOf = (response: PipelinedResponse) => answerOf(response).data?.login?.token;
const retryAfterOf = (response: PipelinedResponse) => answerOf(response).errors?.[0]?.extensions?.retryAfter;

/** 200 wrong passwords and then the right one, all written at once on one connection. */
const GUESSES_THEN_RIGHT = [
  ...Array.from({ length: 200 }, (_, i) => login(`wrong-${i}`)),
  login('demo-password'),
];

describe('guesses arriving together', () => {
  it('should send at most LOGIN_MAX_CONSECUTIVE_FAILURES of 200 pipelined guesses upstream, and refuse the right password after them', async () => {
    const gw = await gateway();
    emulator.resetStats();
    const responses = await pipelined(portOf(gw), GUESSES_THEN_RIGHT);
    expect(responses).toHaveLength(201);
    expect(emulator.stats().loginJson).toBe(10);
    const right = responses[200]!;
    expect(tokenOf(right)).toBeUndefined();
    expect(retryAfterOf(right)).toBeGreaterThan(0);
    expect(
      responses.every((response) => answerOf(response).errors?.[0]?.extensions?.code === 'UNAUTHENTICATED'),
    ).toBe(true);
  });

  it('should send at most LOGIN_MAX_FAILURES_PER_USER of 64 parallel guesses from 64 addresses upstream', async () => {
    const gw = await gateway({ LOGIN_MAX_FAILURES_PER_USER: '20' });
    emulator.resetStats();
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) => pipelined(portOf(gw), [login(`guess-${i}`)], `127.0.1.${i + 1}`)),
    );
    expect(answers.flat()).toHaveLength(64);
    expect(emulator.stats().loginJson).toBe(20);
    // The account is blocked for new clients, whatever their address.
    const [after] = await pipelined(portOf(gw), [login('demo-password')], '127.0.2.1');
    expect(retryAfterOf(after!)).toBeGreaterThan(0);
  });

  it('should let a burst of right passwords in as far as the budget holds, the rest asked to retry at once', async () => {
    const gw = await gateway();
    const port = portOf(gw);
    const responses = await pipelined(
      port,
      Array.from({ length: 30 }, () => login('demo-password')),
    );
    const tokens = responses.map(tokenOf).filter((token) => token !== undefined);
    expect(tokens.length).toBeGreaterThanOrEqual(10);
    // Logins in flight fill the budget for a moment: the others are told to retry in a second, not blocked.
    expect(responses.filter((response) => tokenOf(response) === undefined).map(retryAfterOf)).toEqual(
      Array.from({ length: 30 - tokens.length }, () => 1),
    );
    // Each success gave its reservation back: nothing stays counted.
    const again = await pipelined(
      port,
      Array.from({ length: 10 }, () => login('demo-password')),
    );
    expect(again.map(tokenOf).filter((token) => token !== undefined)).toHaveLength(10);
  });
});

describe('guesses arriving together at two replicas sharing Redis', () => {
  const redis = useRedisServer();

  it('should send at most LOGIN_MAX_CONSECUTIVE_FAILURES upstream of 100 pipelined guesses at each replica', async (context) => {
    const [a, b] = await redis.twoReplicas(context, gateway);
    emulator.resetStats();
    const fallbacksBefore = await redisFallbacks(a, b);
    const wrong = Array.from({ length: 100 }, (_, i) => login(`wrong-${i}`, 'redis-victim'));
    const [onA, onB] = await Promise.all([pipelined(portOf(a), wrong), pipelined(portOf(b), wrong)]);
    expect([...onA, ...onB]).toHaveLength(200);
    // Exactly the budget through Redis; at most each replica's own while one counted without it (a command
    // past its deadline on a loaded machine, the documented degradation: a run at load 6-8 failed an exact 10).
    const fellBack = (await redisFallbacks(a, b)) > fallbacksBefore;
    expect(emulator.stats().loginJson).toBeGreaterThanOrEqual(10);
    expect(emulator.stats().loginJson).toBeLessThanOrEqual(fellBack ? 20 : 10);
  });
});
