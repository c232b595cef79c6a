/**
 * The findings of an attacker's pass over the blame and protection work, each now a guarantee: patterns
 * the first guard let through although they overflow or stall Java's regex engine on values any caller may
 * store; one user opening the breaker for everyone with reads the upstream fails; one request starving the
 * pattern guard; caller mistakes answered as someone else's.
 *
 * The pattern tests run the patterns through a real JVM (`java.util.regex`, as the upstream's
 * `String.matches`) on field values the gateway lets any caller store (well inside `MAX_BODY_BYTES`, 100 kB).
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import { createRequestChecks } from '../../src/upstream/client/request-checks.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { useJavaRegexTimer } from '../support/java/java-regex-timer.ts';
import { startGateway, type TestGateway } from '../support/gateway-harness.ts';
import { LOAN_TYPES, codesOf, loginDemo, postGraphql } from '../support/post-graphql.ts';
import { listenOnLoopback } from '../support/servers/listen-on-loopback.ts';
import { forwardRequest } from '../support/servers/forward-request.ts';
import { expectClosedBreakers } from '../support/expect-closed-breakers.ts';

const LIMIT_MILLIS = 100;
const LOAN = 'com.example.LoanType';

const java = useJavaRegexTimer();
const guard = defaultPatternGuard();

/**
 * [pattern, a field value a caller may store, why]. Every value is far inside the gateway's limits
 * (100 kB body, 1 MiB data, depth 32), so a caller can save it and then filter on it, or it is simply an ordinary long text.
 */
const HOSTILE_IN_JAVA: readonly (readonly [string, string, string])[] = [
  // Java's matcher recurses once per iteration of a group loop: StackOverflowError from ~2,000 characters.
  ['(a|b)*', 'ab'.repeat(2_000), 'group loop: StackOverflowError on a 4,000-character value'],
  ['(.|\\n)*', 'x'.repeat(4_000), 'group loop: StackOverflowError on a 4,000-character value'],
  ['\\w+(?:\\.\\w+)*', `${'a.'.repeat(4_000)}a`, 'dotted-name pattern: StackOverflowError at 8,000 chars'],
  ['(?:[^,]|,)*', 'a,'.repeat(2_000), 'group loop: StackOverflowError on a 4,000-character value'],
  // The checker reads \S as ECMAScript does (\u00a0 is whitespace there); Java's \S matches \u00a0.
  ['\\S*\\xa0*x', `${'\u00a0'.repeat(20_000)} `, 'Java \\S overlaps \\xa0: quadratic, ~1 s at 20,000 chars'],
  // Accepted unanalysed as the "literal run" shape; `.` stops at a line terminator: O(n²).
  [
    '.*a.*',
    `${'a'.repeat(20_000)}\n`,
    '.*lit.* is quadratic: ~0.4 s at 20,000 chars, seconds per record at the 100 kB body limit',
  ],
];

describe('pattern guard vs. a real JVM on values a caller may store', () => {
  it.each(HOSTILE_IN_JAVA)(
    'should refuse %j, which Java overflows on or takes over 100 ms for (%#)',
    async (pattern, subject) => {
      // The value is one the gateway lets any caller save.
      expect(() =>
        createRequestChecks(loadConfig({}).upstreamRequestLimits).data('save', { note: subject }, 'data'),
      ).not.toThrow();
      const { outcome } = await java.run(pattern, subject, LIMIT_MILLIS);
      expect(['overflow', 'timeout']).toContain(outcome);
      expect(await guard.check(pattern)).toMatchObject({ ok: false });
    },
    30_000,
  );
});

/**
 * A loopback upstream that behaves like the Java service for filtered reads: each `matches` criterion is run
 * by the real JVM against the value the attacker stored; a StackOverflowError (or a run past the limit)
 * becomes HTTP 500, as a servlet container answers an uncaught Error. Everything else goes to the emulator.
 */
async function startJavaLikeUpstream(
  targetUrl: string,
  storedValue: string,
  failsOn: (criterion: { fieldName: string; value: string }) => boolean = () => false,
) {
  const target = new URL(targetUrl);
  let overflowed = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const command = url.searchParams.get('filterCommand');
    const forward = () => {
      forwardRequest(target, req, res);
    };
    if (command === null) {
      forward();
      return;
    }
    const criteria = (JSON.parse(command) as { criteria: { fieldName: string; value: string }[] }).criteria;
    void (async () => {
      for (const { fieldName, value } of criteria) {
        if (failsOn({ fieldName, value })) {
          res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>HTTP Status 500</h1>');
          return;
        }
        if (fieldName !== 'note') continue;
        const { outcome } = await java.run(value, storedValue, 1_000);
        if (outcome === 'overflow' || outcome === 'timeout') {
          overflowed += 1;
          res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>HTTP Status 500</h1>');
          return;
        }
      }
      forward();
    })();
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    overflowed: () => overflowed,
    async close() {
      await listening.close();
    },
  };
}

describe('one user against the breaker', () => {
  const NOTE = 'ab'.repeat(2_000);
  const POISON = 'poison';
  let emulator: RunningEmulator;
  let upstream: Awaited<ReturnType<typeof startJavaLikeUpstream>>;
  let gw: TestGateway;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    // Also an upstream bug the gateway cannot foresee: a read filtering on one value answers 500.
    upstream = await startJavaLikeUpstream(emulator.url, NOTE, ({ value }) => value === POISON);
    // Default breaker settings (20 calls, 50 %, 10 s window, 2 users).
    gw = await startGateway({ upstreamUrl: upstream.url });
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
    await emulator.close();
  });

  /** 30 reads in rounds of 10, distinct page sizes so that identical reads in flight are not shared. */
  async function flood(headers: Record<string, string>, filter: string) {
    const read = (first: number) =>
      `{ objects(objectName: "${LOAN}", first: ${first}, filter: { criteria: [${filter}] }) { totalCount } }`;
    const answers = [];
    for (let round = 0; round < 3; round++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            postGraphql(gw.graphqlUrl, read(round * 10 + i + 1), {}, headers),
          ),
        )),
      );
    }
    return answers;
  }

  async function victimIsServed() {
    const login = await postGraphql(
      gw.graphqlUrl,
      'mutation { login(username: "admin", password: "admin-password") { token } }',
    );
    expect(codesOf(login)).toEqual([]);
    const token = (login.data?.login as { token: string }).token;
    const read = await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, { authorization: `Bearer ${token}` });
    expect(read.errors).toBeUndefined();
    expectClosedBreakers(gw);
  }

  it('should refuse a group loop on a stored 4,000-character note before the upstream overflows on it', async () => {
    const attacker = { authorization: `Bearer ${await loginDemo(gw.graphqlUrl)}` };
    const saved = await postGraphql(
      gw.graphqlUrl,
      `mutation S($d: JSONObject!) { saveObject(objectName: "${LOAN}", data: $d) { id } }`,
      { d: { loanType: 'attack', note: NOTE } },
      attacker,
    );
    expect(saved.errors).toBeUndefined();
    const answers = await flood(attacker, '{ fieldName: "note", operator: matches, value: "(a|b)*" }');
    expect(new Set(answers.flatMap((a) => codesOf(a)))).toEqual(new Set(['BAD_USER_INPUT']));
    expect(upstream.overflowed()).toBe(0);
    await victimIsServed();
  });

  it('should keep the breaker closed for everyone while only one user’s reads make the upstream fail', async () => {
    const attacker = { authorization: `Bearer ${await loginDemo(gw.graphqlUrl)}` };
    const answers = await flood(attacker, `{ fieldName: "loanType", operator: equals, value: "${POISON}" }`);
    // The gateway cannot tell this 500 from an outage: the attacker hears UPSTREAM_UNAVAILABLE...
    expect(new Set(answers.flatMap((a) => codesOf(a)))).toEqual(new Set(['UPSTREAM_UNAVAILABLE']));
    // ...but one user's failures never open the breaker the other users share.
    await victimIsServed();
  });
});

describe('one session against the pattern guard', () => {
  let emulator: RunningEmulator;
  let gw: TestGateway;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    gw = await startGateway({ upstreamUrl: emulator.url });
  });
  afterAll(async () => {
    await gw.close();
    await emulator.close();
  });

  /** A pattern recheck cannot finish within the guard's 2 s; `tail` (one letter i…z) makes each one new. */
  const slowToAnalyse = (tail: string) =>
    `(?:a|b|c|d|e|f|g|h)*[^a][^b][^c][^d][^e][^f][^g][^h][^a][^b][^c][^d][^e]${tail}*`;

  it('should refuse 18 costly patterns at once without starving another user’s new ordinary pattern', async () => {
    const attacker = { authorization: `Bearer ${await loginDemo(gw.graphqlUrl)}` };
    const login = await postGraphql(
      gw.graphqlUrl,
      'mutation { login(username: "admin", password: "admin-password") { token } }',
    );
    const victim = {
      authorization: `Bearer ${(login.data?.login as { token: string }).token}`,
    };
    const criteria = Array.from(
      { length: 18 },
      (_, i) =>
        `{ fieldName: "loanType", operator: matches, value: ${JSON.stringify(slowToAnalyse(String.fromCharCode(0x69 + i)))} }`,
    ).join(', ');
    const attack = postGraphql(
      gw.graphqlUrl,
      `{ objects(objectName: "${LOAN}", first: 1, filter: { criteria: [${criteria}] }) { totalCount } }`,
      {},
      attacker,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    // An ordinary pattern the README lists as accepted, new to the guard's cache.
    const ordinary = await postGraphql(
      gw.graphqlUrl,
      `{ objects(objectName: "${LOAN}", first: 1, filter: { criteria: [{ fieldName: "loanType", operator: matches, value: "[0-9]{4}-.*" }] }) { totalCount } }`,
      {},
      victim,
    );
    await attack;
    expect(codesOf(ordinary)).toEqual([]);
  });
});

describe('caller mistakes blamed on the caller', () => {
  let emulator: RunningEmulator;
  let gw: TestGateway;
  let caller: Record<string, string>;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    gw = await startGateway({ upstreamUrl: emulator.url });
    caller = { authorization: `Bearer ${await loginDemo(gw.graphqlUrl)}` };
  });
  afterAll(async () => {
    await gw.close();
    await emulator.close();
  });

  // A lone surrogate is legal in JSON variables; encodeURIComponent throws URIError on it.
  const LONE = '\ud800';
  const CASES: readonly (readonly [string, string, Record<string, unknown>])[] = [
    [
      'metadata(objectId: lone surrogate)',
      'query M($id: ID!) { metadata(objectId: $id) { data } }',
      { id: LONE },
    ],
    [
      'updateObject(id: lone surrogate)',
      `mutation U($id: ID!) { updateObject(id: $id, objectName: "${LOAN}", data: { a: 1 }) { id } }`,
      { id: LONE },
    ],
    [
      'objects(objectName: lone surrogate)',
      'query O($n: String!) { objects(objectName: $n, first: 1) { totalCount } }',
      { n: LONE },
    ],
  ];

  it.each(CASES)('should answer %s as BAD_USER_INPUT, blaming the caller', async (_n, query, variables) => {
    const answer = await postGraphql(gw.graphqlUrl, query, variables, caller);
    expect(codesOf(answer)).toEqual(['BAD_USER_INPUT']);
    expect(answer.errors?.[0]?.extensions?.blame).toBe('caller');
  });

  it.each([
    [
      'an empty fieldName',
      `{ objects(objectName: "${LOAN}", first: 1, filter: { criteria: [{ fieldName: "", operator: equals, value: "x" }] }) { totalCount } }`,
    ],
    [
      'a non-string data._id',
      `mutation { saveObject(objectName: "${LOAN}", data: { _id: 5, a: 1 }) { id } }`,
    ],
  ])('should answer %s as BAD_USER_INPUT before sending', async (_n, query) => {
    const answer = await postGraphql(gw.graphqlUrl, query, {}, caller);
    expect(codesOf(answer)).toEqual(['BAD_USER_INPUT']);
  });
});
