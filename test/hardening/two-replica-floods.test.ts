/**
 * The fair-share attacks against two replicas sharing Redis, as a deployment runs them behind a balancer:
 * two production gateway processes, one emulator, one redis-server; the attacker sends to both replicas at
 * once, the victim (another account, another organization) reads from both in turn. What the product
 * promises with one replica holds with two:
 *
 * - a page of 100 records of 75 KB under 16 response keys, two at once at each replica: refused by name,
 *   both processes alive and within the pod's memory limit, the victim served throughout;
 * - `{ __typename }` pipelined on eight connections, four at each replica; one user's 200 KiB pages, the
 *   same at both; two accounts' new filter patterns at both: the victim's p95 within three times its quiet
 *   p95, no read failed;
 * - slow bodies from 17 addresses, each holding its whole share at both replicas (more than
 *   `MAX_CONNECTIONS`, none idle, each reopened once closed): another client opening a connection per read
 *   every 100 ms is never refused, within three times its quiet p95. Before trickling bodies were closed like
 *   idle ones, such a victim was refused 48 times of 51 (here, with that closing turned off, 125 of 125);
 *   never refused either when each body is closed by the attacker after 0.8 s and opened again, younger
 *   than the grace (before the grace was the address's, 143 refusals of 246), within three times its quiet
 *   p95 (before each address had a share of new connections a second, `MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND`,
 *   2.2-2.5× in four runs against 1.35-2.0× with it: the gateway accepted, parsed and closed a thousand of
 *   these connections a second at each replica);
 * - wrong passwords for the victim's account from 64 addresses at both replicas, its name spelled four ways
 *   (`admin`, `ADMIN`, ` admin`, `Admin`): the victim's known device logs in at either replica every time,
 *   and the upstream hears no more guesses than the budget (twice it only while a replica bypassed Redis,
 *   the documented degradation). Before, a JSON login's other spellings had a budget of their own: 40
 *   guesses reached the upstream for a budget of 20;
 * - the owner of `Ops` (a case-variant twin of `ops` on a case-sensitive upstream) guessing at `ops` with its
 *   own device token from 16 addresses at both replicas, logging in to `Ops` now and then: the upstream hears
 *   no more guesses at `ops` than the budget, and the known device of `ops` logs in every time. Before,
 *   the twin's token was known for `ops` and it was guessed 243 times.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it, type TestContext } from 'vitest';
import { stopProcess } from '../../support/child-process.ts';
import { startGatewayCommand, type GatewayCommand } from '../../support/gateway-command.ts';
import { samplePeakRss } from '../../support/proc-stats.ts';
import { answerSummary } from '../support/answer-summary.ts';
import { startEmulatorProcess, type EmulatorProcess } from '../support/emulator-process.ts';
import { bearerLogin } from '../support/bearer-login.ts';
import { startKeepAliveFlood } from '../support/keep-alive-flood.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';
import { LOAN_TYPES, postGraphql, type GraphqlAnswer } from '../support/post-graphql.ts';
import { startNodeOptions } from '../support/production-gateway.ts';
import { largePageRequests, newPatternRequests } from '../support/flood-requests.ts';
import { rawJsonPost } from '../support/raw-http-client.ts';
import { saveLargeRecords } from '../support/save-large-records.ts';
import { startSlowBodyFlood } from '../../support/slow-body-flood.ts';
import { SETTING_DEFAULTS } from '../../src/config/defaults.ts';
import { SLOW_BODY_MILLIS } from '../../src/http/capacity/connection-limits.ts';
import { redisFallbacks, startRedisServer, type RedisServer } from '../support/servers/redis-server.ts';
import {
  expectVictimServed,
  expectVictimServedBesideOneAddress,
  floodsTogether,
} from '../support/victim-beside-flood.ts';
import { CASE_TWIN_USER as TWIN } from '../support/case-twin-user.ts';
import { MiB } from '../support/mib.ts';

/** The pod's memory limit (deploy/kubernetes). */
const POD_LIMIT = 512 * MiB;
const BLOB = 'com.example.Blob';
const RECORDS = 100;
const RECORD_CHARACTERS = 75_000;
/** The guess budget of one account's unknown clients, small so that the flood passes it many times over. */
const BUDGET = 20;

const LOGIN_IN = `mutation Login($username: String!, $password: String!, $organizationCode: String, $deviceToken: String) {
  login(username: $username, password: $password, organizationCode: $organizationCode, deviceToken: $deviceToken) { token deviceToken }
}`;

let redis: RedisServer | undefined;
let skipped = '';
let emulator: EmulatorProcess;
const replicas: GatewayCommand[] = [];

beforeAll(async () => {
  const started = await startRedisServer();
  if ('skipped' in started) {
    skipped = started.skipped;
    return;
  }
  redis = started;
  // In a process of its own, as production's upstream is: not in the thread that times the victim.
  emulator = await startEmulatorProcess({ objectTypes: [BLOB], users: [TWIN] });
  const env = {
    NODE_ENV: 'production',
    SESSION_SECRET: 'a-test-secret-of-at-least-32-characters',
    REDIS_URL: redis.url,
    TRUSTED_PROXIES: 'loopback',
    LOG_LEVEL: 'error',
    LOGIN_MAX_FAILURES_PER_USER: String(BUDGET),
  };
  for (let i = 0; i < 2; i++) {
    replicas.push(
      await startGatewayCommand({
        upstreamUrl: emulator.url,
        objectTypesDir: DEMO_OBJECTS_DIR,
        nodeOptions: startNodeOptions(),
        env,
      }),
    );
  }
}, 320_000);
afterAll(async () => {
  await Promise.all(replicas.map((replica) => stopProcess(replica.process, 2_000)));
  await (emulator as EmulatorProcess | undefined)?.close();
  await redis?.close();
});

function need(context: TestContext): void {
  if (redis === undefined) context.skip(`no redis-server: ${skipped}`);
}

const urls = () => replicas.map((replica) => replica.graphqlUrl);
/** Both replicas as the victim reads them, with the upstream they share. */
const victimGateways = () => replicas.map((replica) => ({ ...replica, upstream: emulator.process }));
/** Both replicas' ports: one flood thread spreads its connections over them, as a balancer would. */
const ports = () => replicas.map((replica) => Number(new URL(replica.baseUrl).port));

/**
 * `victim`'s reads at both replicas within 3× their quiet p95 while one
 * address sends `requests` at both, its eight connections spread over them as a balancer would.
 */
function expectVictimServedAtBoth(requests: string[], victim: Record<string, string>, name: string) {
  return expectVictimServedBesideOneAddress(ports(), requests, victimGateways(), victim, name);
}

/** Each replica's accepted connections open now (its `gateway_connections_open`). */
function connectionsOpen(): Promise<number[]> {
  return Promise.all(
    replicas.map(async ({ baseUrl }) => {
      const text = await (await fetch(`${baseUrl}/metrics`)).text();
      return Number(/^gateway_connections_open (\d+)/m.exec(text)?.[1] ?? '0');
    }),
  );
}

/** The bearer headers of `username` (password `<username>-password`), logged in at `graphqlUrl`. */
function loginAt(graphqlUrl: string, username: string, organizationCode?: string) {
  const variables = { username, password: `${username}-password` };
  return bearerLogin(
    graphqlUrl,
    organizationCode === undefined ? variables : { ...variables, organizationCode },
    LOGIN_IN,
  );
}

function deviceTokenOf(answer: GraphqlAnswer): string {
  const deviceToken = (answer.data?.login as { deviceToken?: unknown } | undefined)?.deviceToken;
  if (typeof deviceToken !== 'string') throw new Error(`login failed: ${JSON.stringify(answer.errors)}`);
  return deviceToken;
}

function login(
  replica: GatewayCommand,
  variables: { username: string; password: string; organizationCode?: string; deviceToken?: string },
  from: string,
): Promise<GraphqlAnswer> {
  return postGraphql(replica.graphqlUrl, LOGIN_IN, variables, { 'x-forwarded-for': from });
}

/**
 * The known device's 16 logins, every 500 ms at either replica in turn from `from`, while `flood` runs;
 * then the flood is told to stop (`state.done`) and awaited. Each login's summary (`data` when it worked).
 */
async function knownDeviceLogins(
  flood: Promise<unknown>,
  state: { done: boolean },
  credentials: { username: string; password: string; deviceToken: string },
  from: string,
): Promise<string[]> {
  const [a, b] = replicas as [GatewayCommand, GatewayCommand];
  const known: string[] = [];
  try {
    for (let attempt = 0; attempt < 16; attempt++) {
      await sleep(500);
      known.push(answerSummary(await login(attempt % 2 === 0 ? a : b, credentials, from), ['reason']));
    }
  } finally {
    state.done = true;
    await flood;
  }
  return known;
}

it('should refuse the 16-key page of 100 large records at both replicas by name, keep both alive within their memory limit, and serve another user', async (context) => {
  need(context);
  const [a, b] = replicas as [GatewayCommand, GatewayCommand];
  const attacker = await loginAt(a.graphqlUrl, 'ops', 'globex');
  const victim = await loginAt(b.graphqlUrl, 'demo');
  const save = `mutation Save($data: JSONObject!) { saveObject(objectName: "${BLOB}", data: $data) { id } }`;
  for (const answer of await saveLargeRecords(a.graphqlUrl, save, attacker, RECORDS, RECORD_CHARACTERS))
    expect(answerSummary(answer, [])).toBe('data');
  const aliases = Array.from({ length: 15 }, (_, i) => `a${i}: nodes { data }`).join(' ');
  const attack = `query Attack($n: Int!) { objects(objectName: "${BLOB}", first: $n) { nodes { data } ${aliases} } }`;
  const samplers = replicas.map((replica) => samplePeakRss(replica.process.pid, 20));
  const victims: string[] = [];
  const state = { done: false };
  const reading = (async () => {
    for (let turn = 0; !state.done; turn++) {
      const url = urls()[turn % 2] ?? '';
      victims.push(answerSummary(await postGraphql(url, LOAN_TYPES, {}, victim), []));
    }
  })();
  const answers: string[] = [];
  try {
    for (let round = 0; round < 5; round++) {
      const sent = [a, a, b, b].map((replica) =>
        postGraphql(replica.graphqlUrl, attack, { n: RECORDS }, attacker),
      );
      answers.push(...(await Promise.all(sent)).map((answer) => answerSummary(answer, ['blame'])));
    }
  } finally {
    state.done = true;
    await reading;
  }
  const peaks = samplers.map((sampler) => sampler.stop());
  expect(
    answers.every((x) => x === 'MAX_ANSWER_BYTES_EXCEEDED/caller' || x === 'TOO_MANY_REQUESTS/caller'),
    answers.join(', '),
  ).toBe(true);
  expect(victims.length).toBeGreaterThan(0);
  expect(victims.filter((v) => v !== 'data')).toEqual([]);
  for (const [i, replica] of replicas.entries()) {
    expect(replica.process.exited, `replica ${i}`).toBeUndefined();
    expect(peaks[i], `replica ${i} peak RSS`).toBeLessThan(POD_LIMIT);
  }
});

it('should keep another user’s reads at both replicas within 3× their quiet p95 while one address pipelines { __typename } at both', async (context) => {
  need(context);
  const victim = await loginAt(urls()[0] ?? '', 'demo');
  const typename = rawJsonPost('/graphql', { query: '{ __typename }' });
  await expectVictimServedAtBoth([typename], victim, '{ __typename } at two replicas');
});

it('should keep another user’s reads at both replicas within 3× their quiet p95 while one user reads 200 KiB pages at both', async (context) => {
  need(context);
  const [a] = replicas as [GatewayCommand, GatewayCommand];
  const victim = await loginAt(a.graphqlUrl, 'demo');
  const reader = await loginAt(a.graphqlUrl, 'admin');
  const save = `mutation Save($data: JSONObject!) { saveObject(objectName: "${BLOB}", data: $data) { id } }`;
  for (let record = 0; record < 4; record++) {
    const saved = await postGraphql(a.graphqlUrl, save, { data: { text: 'x'.repeat(50_000) } }, reader);
    expect(saved.errors).toBeUndefined();
  }
  await expectVictimServedAtBoth(largePageRequests(reader, BLOB, 4), victim, '200 KiB pages at two replicas');
});

/**
 * `victim`, opening a connection per read every 100 ms at both replicas, is never refused and stays within
 * 3× its quiet p95 while 17 addresses hold their whole share of slow bodies at both (more than
 * `MAX_CONNECTIONS`, none idle, each closed one opened again: the attacker keeps every place it gets);
 * both replicas stay alive within the pod's limit. `abandonAfterMillis`: the attacker closes each body
 * itself that long after opening it, and opens the next.
 */
async function expectServedBesideSlowBodies(name: string, abandonAfterMillis?: number): Promise<void> {
  const victim = await loginAt(urls()[0] ?? '', 'demo');
  const samplers = replicas.map((replica) => samplePeakRss(replica.process.pid, 50));
  const flood = startSlowBodyFlood({
    ports: ports(),
    addresses: Array.from({ length: 17 }, (_, i) => `127.0.0.${String(20 + i)}`),
    perAddress: SETTING_DEFAULTS.MAX_CONNECTIONS_PER_ADDRESS,
    declaredBytes: 10_000,
    trickleMillis: 1_000,
    reconnectMillis: 250,
    ...(abandonAfterMillis === undefined ? {} : { abandonAfterMillis }),
    // Its first fill is the first loud window's (the victim's first reads are a warm-up).
    paused: true,
  });
  // Each loud window begins once both replicas are full, where the victim's connection needs a slow body
  // closed for it, and the bodies have arrived for SLOW_BODY_MILLIS: a body younger than that is still
  // arriving and is never closed (docs/limits.md), so the victim is refused in the first second of a fill.
  // (Bodies reopened before the grace ends are closable at once once their address has abandoned one.)
  const ready = async () => {
    await expect
      .poll(async () => Math.min(...(await connectionsOpen())), { timeout: 60_000, interval: 200 })
      .toBeGreaterThanOrEqual(SETTING_DEFAULTS.MAX_CONNECTIONS - 8);
    await sleep(SLOW_BODY_MILLIS);
    // The flood's own thread holds them: the replicas are full of its slow bodies. A flood that reopens its
    // bodies is between two connections in part of its places at any moment (at a load of 5, at the check,
    // in all but 69 of them): the replicas' own count above is its proof.
    if (abandonAfterMillis !== undefined) return;
    expect(Math.min(...(await flood.held()))).toBeGreaterThanOrEqual(SETTING_DEFAULTS.MAX_CONNECTIONS - 64);
  };
  const statuses = await expectVictimServed({ ...flood, ready }, victimGateways(), victim, name, {
    connectionPerRead: true,
    everyMillis: 100,
  });
  const peaks = samplers.map((sampler) => sampler.stop());
  // Slow bodies were closed to make room (0: closed with nothing answered), and some were refused.
  expect(statuses.get(0) ?? 0).toBeGreaterThan(0);
  for (const [i, replica] of replicas.entries()) {
    expect(replica.process.exited, `replica ${i}`).toBeUndefined();
    expect(peaks[i], `replica ${i} peak RSS`).toBeLessThan(POD_LIMIT);
  }
}

it('should serve another client opening a connection per read at both replicas, never refused, within 3× its quiet p95, while 17 addresses hold slow bodies at both', async (context) => {
  need(context);
  await expectServedBesideSlowBodies('slow bodies at two replicas');
});

it('should serve it, never refused, within 3× its quiet p95, while the 17 addresses reopen every slow body after 0.8 s, younger than the grace', async (context) => {
  need(context);
  // Before the grace was the address's: the victim was refused 143 times of 246.
  await expectServedBesideSlowBodies('slow bodies reopened every 0.8 s at two replicas', 800);
});

it('should keep another user’s reads at both replicas within 3× their quiet p95 while two accounts flood new patterns at both', async (context) => {
  need(context);
  const [a] = replicas as [GatewayCommand, GatewayCommand];
  const victim = await loginAt(a.graphqlUrl, 'demo');
  const flooders = [await loginAt(a.graphqlUrl, 'admin'), await loginAt(a.graphqlUrl, 'ops', 'globex')];
  const floods = flooders.map((headers, account) =>
    startKeepAliveFlood({
      port: ports(),
      requests: newPatternRequests(headers, account),
      connections: 8,
      batch: 9,
      localAddress: `127.0.0.${String(4 + account)}`,
    }),
  );
  await expectVictimServed(
    floodsTogether(floods),
    victimGateways(),
    victim,
    'new patterns from two accounts at two replicas',
  );
});

it('should let the known device log in at either replica while 64 addresses guess its password at both, and hold the guess budget', async (context) => {
  need(context);
  const [a, b] = replicas as [GatewayCommand, GatewayCommand];
  const username = 'admin';
  const first = await login(a, { username, password: 'admin-password' }, '198.51.100.10');
  const deviceToken = (first.data?.login as { deviceToken?: string } | undefined)?.deviceToken;
  if (deviceToken === undefined) throw new Error(JSON.stringify(first.errors));
  await emulator.resetStats();
  const bypassesBefore = await redisFallbacks(a, b);
  const state = { done: false };
  let guesses = 0;
  const guesser = async (i: number) => {
    const from = `203.0.113.${String(i + 1)}`;
    const replica = i % 2 === 0 ? a : b;
    while (!state.done) {
      guesses += 1;
      const spelled = ['admin', 'ADMIN', ' admin', 'Admin'][guesses % 4] ?? username;
      await login(replica, { username: spelled, password: `guess-${String(guesses)}` }, from);
    }
  };
  const flood = Promise.all(Array.from({ length: 64 }, (_, i) => guesser(i)));
  const known = await knownDeviceLogins(
    flood,
    state,
    { username, password: 'admin-password', deviceToken },
    '198.51.100.10',
  );
  const bypassed = (await redisFallbacks(a, b)) > bypassesBefore;
  console.info(
    `${guesses} guesses sent at two replicas; upstream logins ${(await emulator.stats()).loginJson}`,
  );
  expect(known.filter((k) => k !== 'data')).toEqual([]);
  expect(guesses).toBeGreaterThan(10 * BUDGET);
  // The upstream heard the known device's 16 logins and at most the budget of guesses.
  expect((await emulator.stats()).loginJson - known.length).toBeLessThanOrEqual(
    bypassed ? 2 * BUDGET : BUDGET,
  );
});

it('should hold the guess budget of `ops` at both replicas while the owner of the case-variant twin `Ops` guesses it with its own device token, and let the known device of `ops` log in', async (context) => {
  need(context);
  const [a, b] = replicas as [GatewayCommand, GatewayCommand];
  const opsDevice = deviceTokenOf(
    await login(a, { username: 'ops', password: 'ops-password' }, '198.51.100.20'),
  );
  // The attacker's own account, and the device token the upstream's answer to it earned.
  const twinDevice = deviceTokenOf(
    await login(b, { username: TWIN.username, password: TWIN.password }, '198.51.100.30'),
  );
  await emulator.resetStats();
  const bypassesBefore = await redisFallbacks(a, b);
  const state = { done: false };
  let guesses = 0;
  let ownLogins = 0;
  // 16 addresses at both replicas, each sending the twin's device token with its guesses at `ops`, and
  // logging in to its own `Ops` with it now and then (a success clears the device's count of failures).
  const guesser = async (i: number) => {
    const from = `192.0.2.${String(i + 1)}`;
    const replica = i % 2 === 0 ? a : b;
    for (let turn = 1; !state.done; turn++) {
      if (turn % 5 === 0) {
        const own = await login(
          replica,
          { username: TWIN.username, password: TWIN.password, deviceToken: twinDevice },
          from,
        );
        if (own.errors === undefined) ownLogins += 1;
        continue;
      }
      guesses += 1;
      await login(
        replica,
        { username: 'ops', password: `guess-${String(guesses)}`, deviceToken: twinDevice },
        from,
      );
    }
  };
  const flood = Promise.all(Array.from({ length: 16 }, (_, i) => guesser(i)));
  const known = await knownDeviceLogins(
    flood,
    state,
    { username: 'ops', password: 'ops-password', deviceToken: opsDevice },
    '198.51.100.20',
  );
  const bypassed = (await redisFallbacks(a, b)) > bypassesBefore;
  const upstream = (await emulator.stats()).loginJson;
  console.info(
    `${guesses} guesses at ops with Ops's device token at two replicas, ${ownLogins} logins to Ops; upstream JSON logins ${upstream}`,
  );
  expect(known.filter((k) => k !== 'data')).toEqual([]);
  expect(guesses).toBeGreaterThan(5 * BUDGET);
  // The upstream heard the known device's 16 logins, the attacker's to its own account, and at most the
  // budget of guesses at `ops` (twice it only while a replica bypassed Redis).
  expect(upstream - known.length - ownLogins).toBeLessThanOrEqual(bypassed ? 2 * BUDGET : BUDGET);
});
