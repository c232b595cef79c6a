import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { startGateway, useHarness } from '../support/gateway-harness.ts';
import { LoginDocument, ObjectsDocument, SaveDocument } from '../support/operations.ts';

const SECRET = 'session-secret-that-must-never-leak-0123456789';
const logLines: string[] = [];

const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));
const h = useHarness({ env: { SESSION_SECRET: SECRET, LOG_LEVEL: 'trace' }, logStream });

it('should never put a password, the upstream token or the session key in a response or a log line', async () => {
  const bodies: string[] = [];
  const client = h.client();
  const good = await client.mutate({
    mutation: LoginDocument,
    variables: { username: 'demo', password: 'demo-password', method: 'FORM' },
  });
  bodies.push(JSON.stringify(good));
  const bad = await client.mutate({
    mutation: LoginDocument,
    variables: { username: 'demo', password: 'hunter2-wrong' },
  });
  bodies.push(JSON.stringify(bad));
  const token = good.data!.login.token;
  const claims = await h.gateway.services.sessions.open(token);
  const upstreamToken = claims!.apiToken;

  const authed = h.client(token);
  bodies.push(
    JSON.stringify(
      await authed.query({
        query: ObjectsDocument,
        variables: { objectName: 'com.example.LoanType', first: 2 },
      }),
    ),
  );
  bodies.push(
    JSON.stringify(
      await authed.query({ query: ObjectsDocument, variables: { objectName: 'nope', first: 2 } }),
    ),
  );
  bodies.push(
    JSON.stringify(
      await authed.mutate({
        mutation: SaveDocument,
        variables: { objectName: 'com.example.LoanType', data: { loanType: 'S' } },
      }),
    ),
  );
  h.emulator.setFaults({ every: 1, mode: 'garbage' });
  bodies.push(
    JSON.stringify(
      await authed.query({
        query: ObjectsDocument,
        variables: { objectName: 'com.example.LoanType', first: 2 },
      }),
    ),
  );
  h.emulator.setFaults(undefined);

  const everything = [...bodies, ...logLines].join('\n');
  expect(logLines.length).toBeGreaterThan(0);
  for (const secret of ['demo-password', 'hunter2-wrong', upstreamToken, SECRET]) {
    expect(everything).not.toContain(secret);
  }
});

it('should keep credentials sent in URLs and headers, and the Redis password, out of every log line', async () => {
  const before = logLines.length;
  const token = await h.login();
  const variables = encodeURIComponent(JSON.stringify({ password: 'pw-in-a-url', apiToken: 'tok-in-a-url' }));
  const get = await fetch(
    `${h.graphqlUrl}?query=${encodeURIComponent('query Me { me { username } }')}&variables=${variables}&apiToken=tok-param`,
    { headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' } },
  );
  expect(get.status).toBe(200);
  // A GET that fails before GraphQL runs (a mutation, which only POST may carry) is logged too.
  await fetch(`${h.graphqlUrl}?query=${encodeURIComponent('mutation { logout }')}&password=pw-csrf`);

  const redisLines: string[] = [];
  const redisLog = new PassThrough();
  redisLog.on('data', (chunk: Buffer) => redisLines.push(chunk.toString('utf8')));
  const withRedis = await startGateway({
    upstreamUrl: h.emulator.url,
    env: { REDIS_URL: 'redis://:redis-password-42@127.0.0.1:1', LOG_LEVEL: 'trace' },
    logStream: redisLog,
  });
  await withRedis.close();

  const fresh = [...logLines.slice(before), ...redisLines].join('\n');
  expect(fresh).toContain('"msg":"graphql request"');
  expect(fresh).toContain('redis connection lost');
  for (const secret of [
    'pw-in-a-url',
    'tok-in-a-url',
    'tok-param',
    'pw-csrf',
    token,
    'redis-password-42',
    SECRET,
  ]) {
    expect(fresh).not.toContain(secret);
  }
});
