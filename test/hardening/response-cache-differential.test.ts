/**
 * The response cache proved by difference (issue 40): one random sequence of reads and writes from several
 * accounts of two organizations (and two the upstream refuses), each step through replica A or B at random
 * and each read as `GET` or `POST`, run against two replicas with the cache on (sharing a real
 * `redis-server`: versions and entries; `CACHE_HTTP=private`) and two with it off, each pair before an
 * emulator of its own with the same seed data. Every answer, normalised (each world's new ids named by the
 * order they were made in, errors by code and path), is the same in both worlds, except reads of a type an
 * organization wrote directly on the upstream (past the gateways, `maxAge` documents that difference) until a
 * write through the gateways replaces its version; no answer in either world holds another organization's
 * data; a `GET` answer says `private, max-age` at most the policy's `maxAge` only when every read was of a
 * cached type, else `no-store`, never `public`. Then, with entries cached, the upstream failing: stale answers,
 * marked, within the stale age, and errors past it.
 *
 * The sequence comes from a seed, printed on failure; `CACHE_DIFFERENTIAL_SEED=<n>` replays one,
 * `CACHE_DIFFERENTIAL_STEPS=<n>` sets its length, `CACHE_DIFFERENTIAL_TRACE=1` prints every step.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { seedObjectId } from '../../emulator/store/object-id.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import type { GraphqlAnswer } from '../support/post-graphql.ts';
import { startRedisServer, type RedisServer } from '../support/servers/redis-server.ts';

const LOAN = 'com.example.LoanType';
const CUSTOMER = 'com.example.Customer';
const ORDER = 'com.example.Order';
type TypeName = typeof LOAN | typeof CUSTOMER | typeof ORDER;
const TYPES: readonly TypeName[] = [LOAN, CUSTOMER, ORDER];

/** The seed's tenant and type codes (`emulator/store/seed-data.ts`): ids of every tenant's seed objects. */
const TENANT_CODES = { acme: 1, globex: 2, initech: 3 } as const;
type Org = keyof typeof TENANT_CODES;
const ORGS = Object.keys(TENANT_CODES) as Org[];
const TYPE_CODES: Record<TypeName, number> = { [LOAN]: 1, [CUSTOMER]: 2, [ORDER]: 3 };

/**
 * The sessions of the sequence: two accounts in acme, two in globex (admin in both), and two the upstream
 * refuses on every read and write, whose logins the gateway accepts: `crm`, whose application is not the
 * gateway's, and `ops` claiming acme. A refused one must never be served what the others cached.
 */
const SESSIONS: readonly { username: string; org: Org }[] = [
  { username: 'demo', org: 'acme' },
  { username: 'admin', org: 'acme' },
  { username: 'ops', org: 'globex' },
  { username: 'admin', org: 'globex' },
  { username: 'crm', org: 'initech' },
  { username: 'ops', org: 'acme' },
];
/** Who writes "directly on the upstream" in each organization (through a gateway with the cache off, no Redis). */
const DIRECT_WRITERS: Record<Org, string> = { acme: 'demo', globex: 'ops', initech: 'crm' };

/** LoanType shared within the organization, Customer per account, Order never cached (its customer is). */
const POLICIES = `${LOAN}=60:PUBLIC,${CUSTOMER}=60:PRIVATE`;
const SECRET = 'response-cache-differential-secret-0123456789';

const LOGIN = `mutation($username: String!, $password: String!, $org: String) {
  login(username: $username, password: $password, organizationCode: $org) { token } }`;
const OBJECT = 'query($o: String!, $id: ID) { object(objectName: $o, id: $id) { id objectName data } }';
const FIND = 'query($o: String!, $f: FilterInput) { object(objectName: $o, filter: $f) { id data } }';
const PAGE = `query($o: String!, $f: FilterInput, $first: Int) { objects(objectName: $o, filter: $f, first: $first) {
  totalCount nodes { id data } pageInfo { hasNextPage hasPreviousPage } } }`;
const TYPED_BY_ID: Record<TypeName, string> = {
  [LOAN]: 'query($id: ID!) { loanType(id: $id) { id loanType description rate } }',
  [CUSTOMER]: 'query($id: ID!) { customer(id: $id) { id name email city } }',
  [ORDER]: 'query($id: ID!) { order(id: $id) { id number total status customer { id name email } } }',
};
const TYPED_PAGE: Record<TypeName, string> = {
  [LOAN]: `query($w: LoanTypeWhere, $first: Int) { loanTypes(where: $w, first: $first) {
    totalCount nodes { id loanType rate } pageInfo { hasNextPage } } }`,
  [CUSTOMER]: `query($w: CustomerWhere, $first: Int) { customers(where: $w, first: $first) {
    totalCount nodes { id name country } pageInfo { hasNextPage } } }`,
  [ORDER]: `query($w: OrderWhere, $first: Int) { orders(where: $w, first: $first) {
    totalCount nodes { id number total customer { id name } } pageInfo { hasNextPage } } }`,
};
const SAVE = `mutation($o: String!, $data: JSONObject!) { saveObject(objectName: $o, data: $data) {
  id object { id data } } }`;
const UPDATE = `mutation($o: String!, $id: ID!, $data: JSONObject!) { updateObject(objectName: $o, id: $id, data: $data) {
  id updatedFields object { id data } } }`;
const SAVE_LOAN = `mutation($input: LoanTypeInput!) { saveLoanType(input: $input) { id object { id loanType rate } } }`;
const UPDATE_LOAN = `mutation($id: ID!, $input: LoanTypePatch!) { updateLoanType(id: $id, input: $input) {
  id object { id loanType rate } } }`;
const UPDATE_CUSTOMER = `mutation($id: ID!, $input: CustomerPatch!) { updateCustomer(id: $id, input: $input) {
  id object { id name } } }`;

/** The field each type is searched and paged by, and the values of the seed and of the sequence's saves. */
const TEXT_FIELD: Record<TypeName, string> = { [LOAN]: 'loanType', [CUSTOMER]: 'name', [ORDER]: 'number' };
const TYPED_WHERE_FIELD = TEXT_FIELD;
const SEED_PREFIX: Record<TypeName, string> = { [LOAN]: 'Home', [CUSTOMER]: 'Ada', [ORDER]: 'ORD-' };
const SAVED_PREFIX: Record<TypeName, string> = { [LOAN]: 'L ', [CUSTOMER]: 'C ', [ORDER]: 'O ' };
/** A saved object's text: it names its organization, so an answer holding another's is seen at once. */
const savedText = (type: TypeName, org: Org, n: number) => `${SAVED_PREFIX[type]}${org} ${n}`;

/** A target of a read or write: a seed object of any tenant (another's too), or the k-th object saved. */
type Target = { seed: [tenant: Org, index: number] } | { saved: number };

type Op =
  | { kind: 'byId'; s: number; type: TypeName; target: Target; typed: boolean }
  | { kind: 'find'; s: number; type: TypeName; value: 'seed' | 'saved'; n: number }
  | {
      kind: 'page';
      s: number;
      type: TypeName;
      prefix: 'seed' | 'saved' | 'none';
      first: number;
      typed: boolean;
    }
  | { kind: 'save'; s: number; type: TypeName; n: number; typed: boolean }
  | { kind: 'update'; s: number; type: TypeName; target: Target; n: number; typed: boolean }
  | { kind: 'direct'; org: Org; type: TypeName; target: Target; n: number }
  /**
   * The read `back` reads before this one again (what a cache is for), by the same session or, `as` set,
   * by another (what must not cross).
   */
  | { kind: 'again'; back: number; as: number | null };

/** One op and the replica it goes through. */
interface Step {
  op: Op;
  replica: 'a' | 'b';
  /** A read sent as `GET` (as urql sends queries), else `POST`. */
  get: boolean;
}

const session = fc.nat({ max: SESSIONS.length - 1 });
const type = fc.constantFrom(...TYPES);
const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ saved: fc.nat({ max: 40 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ seed: fc.tuple(fc.constantFrom(...ORGS), fc.nat({ max: 2 })) }),
  },
);
const n = fc.integer({ min: 1, max: 999 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('byId'), s: session, type, target, typed: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('find'),
      s: session,
      type,
      value: fc.constantFrom('seed', 'saved'),
      n,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('page'),
      s: session,
      type,
      prefix: fc.constantFrom('seed', 'saved', 'none'),
      first: fc.constantFrom(1, 3, 10),
      typed: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('save'), s: session, type, n, typed: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('update'), s: session, type, target, n, typed: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('direct'), org: fc.constantFrom(...ORGS), type, target, n }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('again'),
      back: fc.nat({ max: 12 }),
      as: fc.option(session, { freq: 2 }),
    }),
  },
);
const step: fc.Arbitrary<Step> = fc.record({
  op,
  replica: fc.constantFrom<'a' | 'b'>('a', 'b'),
  get: fc.boolean(),
});

/** One object the sequence saved: its organization and type, and its id in each world. */
interface Saved {
  org: Org;
  type: TypeName;
}

/** Two replicas, a gateway writing past them, and the emulator they front. */
interface World {
  name: string;
  emulator: RunningEmulator;
  a: TestGateway;
  b: TestGateway;
  direct: TestGateway;
  /** The session tokens, by index of {@link SESSIONS}. */
  tokens: string[];
  directTokens: Record<Org, string>;
  /** The ids of the saved objects in this world, by index of the sequence's saves. */
  ids: (string | undefined)[];
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function login(gw: TestGateway, username: string, org: Org): Promise<string> {
  const answer = await gw.post(LOGIN, { username, password: `${username}-password`, org });
  const token = (answer.data?.login as { token?: string } | null)?.token;
  if (token === undefined)
    throw new Error(`login of ${username} in ${org}: ${JSON.stringify(answer.errors)}`);
  return token;
}

async function startWorld(name: string, env: Record<string, string>): Promise<World> {
  const emulator = await startEmulator({ port: 0 });
  closers.push(() => emulator.close());
  const gateway = async (extra: Record<string, string>) => {
    const started = await startGateway({
      upstreamUrl: emulator.url,
      // A write to an id that is not there waits 50 ms (not 2 s) for the upstream's reads to show it.
      env: { SESSION_SECRET: SECRET, CACHE_POLICIES: POLICIES, UPSTREAM_WRITE_READ_BACK_MS: '50', ...extra },
      listen: false,
    });
    closers.push(() => started.close());
    return started;
  };
  const [a, b, direct] = [await gateway(env), await gateway(env), await gateway({ CACHE: 'off' })];
  const tokens = [];
  for (const { username, org } of SESSIONS) tokens.push(await login(a, username, org));
  const directTokens = {} as Record<Org, string>;
  for (const org of ORGS) directTokens[org] = await login(direct, DIRECT_WRITERS[org], org);
  return { name, emulator, a, b, direct, tokens, directTokens, ids: [] };
}

/** The id a target names in `world`: a made-up one while the k-th save has not happened (or failed). */
function idOf(world: World, saved: readonly Saved[], target: Target, type: TypeName): string {
  if ('seed' in target) return seedObjectId(TENANT_CODES[target.seed[0]], TYPE_CODES[type], target.seed[1]);
  const count = saved.length;
  const id = count === 0 ? undefined : world.ids[target.saved % count];
  return id ?? '0123456789abcdef01234567';
}

/** The data a save or update writes. */
function dataOf(type: TypeName, org: Org, n: number, update: boolean): Record<string, unknown> {
  if (type === LOAN) return update ? { rate: n } : { loanType: savedText(type, org, n), rate: n };
  if (type === CUSTOMER) return { name: savedText(type, org, n), address: { city: 'Porto', country: 'PT' } };
  // An order of the organization's first seed customer: reading its `customer` reads a cached type.
  const customer = { id: seedObjectId(TENANT_CODES[org], TYPE_CODES[CUSTOMER], n % 3) };
  return update ? { total: n } : { number: savedText(type, org, n), total: n, customer };
}

/** The request one op makes in `world` (the gateway, document, variables and token). */
function requestOf(world: World, saved: readonly Saved[], step: Step) {
  const { op } = step;
  const gw = world[step.replica];
  if (op.kind === 'direct') {
    const id = idOf(world, saved, op.target, op.type);
    const data = dataOf(op.type, op.org, op.n, true);
    return {
      gw: world.direct,
      query: UPDATE,
      variables: { o: op.type, id, data },
      token: world.directTokens[op.org],
    };
  }
  if (op.kind === 'again')
    throw new Error('an `again` step is resolved to the read it repeats before it is sent');
  const token = world.tokens[op.s] ?? '';
  const org = SESSIONS[op.s]?.org ?? 'acme';
  switch (op.kind) {
    case 'byId': {
      const id = idOf(world, saved, op.target, op.type);
      return op.typed
        ? { gw, query: TYPED_BY_ID[op.type], variables: { id }, token }
        : { gw, query: OBJECT, variables: { o: op.type, id }, token };
    }
    case 'find': {
      const value = op.value === 'seed' ? seedValue(op.type, op.n) : savedText(op.type, org, op.n % 10);
      const f = { criteria: [{ fieldName: TEXT_FIELD[op.type], operator: 'equals', value }] };
      return { gw, query: FIND, variables: { o: op.type, f }, token };
    }
    case 'page': {
      const prefix = op.prefix === 'seed' ? SEED_PREFIX[op.type] : SAVED_PREFIX[op.type];
      if (op.typed) {
        const w = op.prefix === 'none' ? null : { [TYPED_WHERE_FIELD[op.type]]: { startsWith: prefix } };
        return { gw, query: TYPED_PAGE[op.type], variables: { w, first: op.first }, token };
      }
      const f =
        op.prefix === 'none'
          ? null
          : { criteria: [{ fieldName: TEXT_FIELD[op.type], operator: 'startsWith', value: prefix }] };
      return { gw, query: PAGE, variables: { o: op.type, f, first: op.first }, token };
    }
    case 'save': {
      const data = dataOf(op.type, org, op.n, false);
      if (op.typed && op.type === LOAN) return { gw, query: SAVE_LOAN, variables: { input: data }, token };
      return { gw, query: SAVE, variables: { o: op.type, data }, token };
    }
    case 'update': {
      const id = idOf(world, saved, op.target, op.type);
      const data = dataOf(op.type, org, op.n, true);
      if (op.typed && op.type === LOAN)
        return { gw, query: UPDATE_LOAN, variables: { id, input: data }, token };
      if (op.typed && op.type === CUSTOMER) {
        return {
          gw,
          query: UPDATE_CUSTOMER,
          variables: { id, input: { name: savedText(CUSTOMER, org, op.n) } },
          token,
        };
      }
      return { gw, query: UPDATE, variables: { o: op.type, id, data }, token };
    }
  }
}

/** A value of the seed's searched field (`emulator/store/seed-data.ts`). */
function seedValue(type: TypeName, n: number): string {
  if (type === LOAN) return ['Home Fixed', 'Car Fixed', 'Student Fixed', 'Boat Variable'][n % 4] ?? '';
  if (type === CUSTOMER) return ['Ada Turing', 'Alan Hopper', 'Grace Torvalds'][n % 3] ?? '';
  return `ORD-${(n % 3) + 1}${String((n % 5) + 1).padStart(5, '0')}`;
}

/** The id a save's answer names. */
function savedIdOf(answer: GraphqlAnswer): string | undefined {
  const data = answer.data ?? {};
  const written = (data.saveObject ?? data.saveLoanType) as { id?: string } | null | undefined;
  return written?.id;
}

const OBJECT_ID = /\b[0-9a-f]{24}\b/g;

/** An answer as both worlds can agree on it: this world's new ids named by save order, errors by code and path. */
function normalise(world: World, answer: GraphqlAnswer): unknown {
  const names = new Map<string, string>();
  world.ids.forEach((id, k) => {
    if (id !== undefined) names.set(id, `#${k}`);
  });
  const rename = (text: string) => text.replace(OBJECT_ID, (id) => names.get(id) ?? id);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return rename(value);
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [rename(key), walk(v)]));
    }
    return value;
  };
  return {
    status: answer.status,
    data: walk(answer.data ?? null),
    errors: answer.errors?.map((error) => ({
      code: (error.extensions as { code?: unknown } | undefined)?.code,
      path: (error as { path?: unknown }).path,
    })),
  };
}

/** What of another organization an answer to `org` must never hold: its seed's and the sequence's texts. */
function foreignMarks(org: Org): string[] {
  return ORGS.filter((other) => other !== org).flatMap((other) => [
    `(${other})`,
    `@${other}.example.com`,
    ` ${other} `,
    `"ORD-${TENANT_CODES[other]}`,
  ]);
}

function isRead(op: Op): op is Extract<Op, { kind: 'byId' | 'find' | 'page' }> {
  return op.kind === 'byId' || op.kind === 'find' || op.kind === 'page';
}

/** GETs one query, as `TestGateway.post` POSTs it. */
async function getGraphql(
  gw: TestGateway,
  query: string,
  variables: Record<string, unknown>,
  authorization: string,
): Promise<GraphqlAnswer> {
  const params = new URLSearchParams({ query, variables: JSON.stringify(variables) });
  const response = await gw.fetch(`/graphql?${params.toString()}`, { headers: { authorization } });
  const body = (await response.json()) as Pick<GraphqlAnswer, 'data' | 'errors'>;
  return { status: response.status, headers: response.headers, ...body, elapsedMillis: 0 };
}

/** The types a read of `op` reads: an order's customer is read too. */
function typesRead(type: TypeName): TypeName[] {
  return type === ORDER ? [ORDER, CUSTOMER] : [type];
}

/**
 * Runs `steps` in both worlds, comparing step by step. Answers the number of reads left uncompared because
 * their type was written past the gateways, and of `GET` answers the cache-on world let the caller keep.
 */
async function runSequence(
  on: World,
  off: World,
  steps: readonly Step[],
): Promise<{ uncompared: number; kept: number }> {
  const saved: Saved[] = [];
  /** `org type` pairs written directly on the upstream and not since through the gateways. */
  const tainted = new Set<string>();
  let uncompared = 0;
  let kept = 0;
  const reads: Op[] = [];
  for (const [index, generated] of steps.entries()) {
    let current = generated;
    if (generated.op.kind === 'again') {
      const again = reads[reads.length - 1 - (generated.op.back % Math.max(1, reads.length))];
      if (again === undefined) continue;
      const as = generated.op.as;
      current = {
        ...generated,
        op: as === null || again.kind === 'direct' || again.kind === 'again' ? again : { ...again, s: as },
      };
    }
    const { op } = current;
    if (op.kind === 'again') continue;
    if (isRead(op)) reads.push(op);
    const [onAnswer, offAnswer] = await Promise.all(
      [on, off].map(async (world) => {
        const { gw, query, variables, token } = requestOf(world, saved, current);
        const authorization = `Bearer ${token}`;
        return current.get && !query.startsWith('mutation')
          ? getGraphql(gw, query, variables, authorization)
          : gw.post(query, variables, { authorization });
      }),
    );
    if (onAnswer === undefined || offAnswer === undefined) throw new Error('no answer');
    const where = `step ${index} ${JSON.stringify(current)}`;
    if (TRACE) console.info(where, JSON.stringify(normalise(on, onAnswer)).slice(0, 400));
    const org = op.kind === 'direct' ? op.org : (SESSIONS[op.s]?.org ?? 'acme');
    for (const answer of [onAnswer, offAnswer]) {
      const text = JSON.stringify(answer.data ?? null);
      for (const mark of foreignMarks(org)) {
        if (text.includes(mark)) throw new Error(`${where}: an answer to ${org} holds "${mark}": ${text}`);
      }
    }
    // A save's new id is named before its answer is compared.
    if (op.kind === 'save') {
      const ids = [savedIdOf(onAnswer), savedIdOf(offAnswer)];
      if (ids[0] !== undefined || ids[1] !== undefined) {
        on.ids.push(ids[0]);
        off.ids.push(ids[1]);
        saved.push({ org, type: op.type });
      }
    }
    // Nothing is ever stale while the upstream answers.
    expect(onAnswer.headers.get('x-gateway-cache'), where).toBeNull();
    // CACHE_HTTP=private: a GET answer of cached types' reads alone says private for at most their maxAge;
    // an error, a POST, a write or an uncached type (Order) no-store; nothing ever public. Off: no-store.
    expect(offAnswer.headers.get('cache-control'), where).toBe('no-store');
    const cacheControl = onAnswer.headers.get('cache-control');
    const mayKeep =
      current.get && isRead(op) && onAnswer.errors === undefined && !typesRead(op.type).includes(ORDER);
    if (mayKeep && cacheControl !== 'no-store') kept++;
    if (mayKeep) expect(cacheControl, where).toMatch(/^(no-store|private, max-age=([1-5]?\d|60))$/);
    else expect(cacheControl, where).toBe('no-store');
    if (isRead(op) && typesRead(op.type).some((type) => tainted.has(`${org} ${type}`))) {
      uncompared++;
    } else {
      expect(normalise(on, onAnswer), where).toEqual(normalise(off, offAnswer));
    }
    if (op.kind === 'direct' && offAnswer.errors === undefined) tainted.add(`${org} ${op.type}`);
    // A write through the gateways replaced the type's version in its organization: every replica misses.
    if ((op.kind === 'save' || op.kind === 'update') && onAnswer.errors === undefined) {
      tainted.delete(`${org} ${op.type}`);
    }
  }
  return { uncompared, kept };
}

const STEPS = Number(process.env.CACHE_DIFFERENTIAL_STEPS ?? 600);
/** `CACHE_DIFFERENTIAL_TRACE=1` prints each step and the cache-on world's answer. */
const TRACE = process.env.CACHE_DIFFERENTIAL_TRACE === '1';

/** A `redis-server` of the test's own, closed after the file's tests; `undefined` (the test skipped) when none. */
async function redisOrSkip(context: TestContext): Promise<RedisServer | undefined> {
  const started = await startRedisServer();
  if ('skipped' in started) {
    context.skip(started.skipped);
    return undefined;
  }
  closers.push(() => started.close());
  return started;
}

describe('the response cache against the same run without it', () => {
  it('answers every step as the gateways without a cache do, tenants apart', async (context) => {
    const started = await redisOrSkip(context);
    if (started === undefined) return;
    const seed = Number(process.env.CACHE_DIFFERENTIAL_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const [on, off] = await Promise.all([
      startWorld('cache on', {
        CACHE: 'on',
        REDIS_URL: started.url,
        CACHE_REDIS_MAX_BYTES: '1000000',
        CACHE_HTTP: 'private',
      }),
      // Redis for the sessions as well (another database): the worlds differ by the cache alone.
      startWorld('cache off', { CACHE: 'off', REDIS_URL: `${started.url}/1` }),
    ]);
    const [steps = []] = fc.sample(fc.array(step, { minLength: STEPS, maxLength: STEPS }), {
      seed,
      numRuns: 1,
    });
    let counts: { uncompared: number; kept: number };
    try {
      counts = await runSequence(on, off, steps);
    } catch (error) {
      console.error(
        `response cache differential: failed with seed ${seed} (CACHE_DIFFERENTIAL_SEED=${seed})`,
      );
      throw error;
    }
    // The cache was used: the sequence reads the same things again, and some were hits.
    let hits = 0;
    for (const gw of [on.a, on.b]) {
      const metrics = await (await gw.fetch('/metrics')).text();
      for (const [, count] of metrics.matchAll(/gateway_cache_events_total\{[^}]*event="hit"\} (\d+)/g)) {
        hits += Number(count);
      }
    }
    expect(hits).toBeGreaterThan(0);
    // And some GET answers said private, max-age (a few hundred GET reads of cached types).
    expect(counts.kept).toBeGreaterThan(0);
    console.info(
      `response cache differential: seed ${seed}, ${steps.length} steps, ${hits} hits, ` +
        `${counts.kept} GET answers private, ${counts.uncompared} reads after a direct write left uncompared`,
    );
  });

  it('answers stale, marked, while the upstream fails within the stale age, and errors past it', async (context) => {
    const started = await redisOrSkip(context);
    if (started === undefined) return;
    // Fresh for one second, served stale for five more while the upstream fails (room for a slow machine).
    const MAX_AGE = 1;
    const STALE = 5;
    const world = await startWorld('stale', {
      CACHE: 'on',
      REDIS_URL: started.url,
      CACHE_REDIS_MAX_BYTES: '1000000',
      CACHE_POLICIES: `${LOAN}=${MAX_AGE}:PUBLIC,${CUSTOMER}=${MAX_AGE}:PRIVATE`,
      CACHE_STALE_IF_ERROR_SECONDS: String(STALE),
    });
    const [demo = '', ops = ''] = [world.tokens[0], world.tokens[2]];
    const acme = TENANT_CODES.acme;
    const globex = TENANT_CODES.globex;
    /** Reads of cached types by two organizations: by id, a find, pages, generic and typed. */
    const reads = [
      { token: demo, query: OBJECT, variables: { o: LOAN, id: seedObjectId(acme, 1, 0) } },
      { token: demo, query: TYPED_PAGE[LOAN], variables: { w: null, first: 3 } },
      { token: demo, query: TYPED_BY_ID[CUSTOMER], variables: { id: seedObjectId(acme, 2, 1) } },
      { token: ops, query: OBJECT, variables: { o: LOAN, id: seedObjectId(globex, 1, 0) } },
      { token: ops, query: PAGE, variables: { o: CUSTOMER, f: null, first: 3 } },
      {
        token: ops,
        query: FIND,
        variables: {
          o: CUSTOMER,
          f: { criteria: [{ fieldName: 'name', operator: 'startsWith', value: 'A' }] },
        },
      },
    ];
    const send = (gw: TestGateway, read: (typeof reads)[number]) =>
      gw.post(read.query, read.variables, { authorization: `Bearer ${read.token}` });
    // Each read through A, then through B (from Redis's shared entries or its own read).
    const fresh = [];
    for (const read of reads) {
      const answer = await send(world.a, read);
      expect(answer.errors, read.query).toBeUndefined();
      expect(answer.data).not.toBeNull();
      fresh.push(answer.data);
      expect((await send(world.b, read)).data).toEqual(answer.data);
    }
    const cachedUntil = performance.now();
    // A read nothing cached: the uncached Order, and a Customer page never read.
    const uncached = [
      { token: demo, query: TYPED_PAGE[ORDER], variables: { w: null, first: 2 } },
      { token: ops, query: TYPED_PAGE[CUSTOMER], variables: { w: null, first: 2 } },
    ];

    // Past every entry's maxAge (no longer than that), the upstream down: each replica answers stale.
    await sleep(Math.max(0, cachedUntil + MAX_AGE * 1_000 + 100 - performance.now()));
    try {
      for (const [gw, mode] of [
        [world.a, 'error500'],
        [world.b, 'reset'],
      ] as const) {
        world.emulator.setFaults({ every: 1, mode, operations: ['getObject', 'getAll', 'metadata'] });
        for (const [i, read] of reads.entries()) {
          const answer = await send(gw, read);
          const where = `${mode}: ${read.query}`;
          expect(answer.errors, where).toBeUndefined();
          expect(answer.data, where).toEqual(fresh[i]);
          const report = (answer as { extensions?: { cache?: { stale?: unknown; ageSeconds?: unknown } } })
            .extensions?.cache;
          expect(report?.stale, where).toBe(true);
          expect(report?.ageSeconds, where).toBeGreaterThanOrEqual(MAX_AGE);
          expect(report?.ageSeconds, where).toBeLessThanOrEqual(MAX_AGE + STALE);
          expect(answer.headers.get('x-gateway-cache'), where).toBe('stale');
          expect(Number(answer.headers.get('age')), where).toBeGreaterThanOrEqual(MAX_AGE);
        }
        for (const read of uncached) {
          const answer = await send(gw, read);
          expect(answer.errors?.length, `${mode}: ${read.query}`).toBeGreaterThan(0);
          expect(answer.headers.get('x-gateway-cache')).toBeNull();
        }
      }

      // Past maxAge and stale age together: the upstream's failure is the answer, on both replicas.
      await sleep(Math.max(0, cachedUntil + (MAX_AGE + STALE) * 1_000 + 100 - performance.now()));
      for (const gw of [world.a, world.b]) {
        for (const read of reads) {
          const answer = await send(gw, read);
          expect(answer.errors?.length, read.query).toBeGreaterThan(0);
          expect(answer.headers.get('x-gateway-cache')).toBeNull();
          expect((answer as { extensions?: { cache?: unknown } }).extensions?.cache).toBeUndefined();
        }
      }
    } finally {
      world.emulator.setFaults(undefined);
    }
  });
});
