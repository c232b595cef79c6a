/**
 * `npm run upstream:check` against the emulator in each dialect it speaks: the settings it writes are the
 * dialect's, it writes nothing without `--allow-writes`, never prints the password, and its exit code says
 * whether the gateway can work with the upstream.
 */
import { createServer } from 'node:http';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import { HEADER_ALLOWANCE_BYTES } from '../../src/upstream/client/request-checks.ts';
import { startGateway } from '../support/gateway-harness.ts';
import { forwardRequest } from '../support/servers/forward-request.ts';
import { listenOnLoopback } from '../support/servers/listen-on-loopback.ts';
import { runUpstreamCheck, verdictOf } from './check-command.ts';
import { useCheckEmulators } from './check-emulators.ts';
import { findClosedPort } from '../support/servers/misbehaving-server.ts';

const READ = ['--object-name', 'com.example.Order'];
/** The scratch type the write probes may save into (only with `--allow-writes`). */
const WRITE_TYPE = ['--write-object-name', 'com.example.LoanType'];

const emulator = useCheckEmulators();

// Each test runs the command (a process, a few dozen paced requests): generous on a busy machine.
describe('npm run upstream:check, in each dialect of the emulator', () => {
  it.each([
    ['page0', 'as-assumed'],
    ['page1', 'differs'],
    ['offset', 'differs'],
  ] as const)(
    'should write UPSTREAM_PAGE_START=%s for an upstream whose pageStart counts so',
    async (pageStart, verdict) => {
      const { url } = await emulator({ pageStart });
      const run = await runUpstreamCheck({ url }, READ);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.env.UPSTREAM_PAGE_START).toBe(pageStart);
      expect(verdictOf(run, 'pageStart base')).toBe(verdict);
      expect(verdictOf(run, 'totalCount')).toBe('as-assumed');
      expect(run.stdout).toContain(`UPSTREAM_PAGE_START=${pageStart}\n`);
    },
  );

  it.each([
    ['regex', 'whole value', 'as-assumed'],
    ['find', 'part of the value', 'differs'],
    ['exact', 'plain equality', 'differs'],
  ] as const)(
    'should write UPSTREAM_MATCHES=%s for an upstream matching the %s',
    async (matches, _what, verdict) => {
      const { url } = await emulator({ matches });
      const run = await runUpstreamCheck({ url }, READ);
      expect(run.code).toBe(0);
      expect(run.env.UPSTREAM_MATCHES).toBe(matches);
      expect(verdictOf(run, 'matches semantics')).toBe(verdict);
      expect(verdictOf(run, 'dotted paths')).toBe('as-assumed');
      expect(verdictOf(run, 'matches on fields')).toBe('as-assumed');
      expect(verdictOf(run, 'criteria combined')).toBe('as-assumed');
      expect(verdictOf(run, 'getObject')).toBe('as-assumed');
    },
  );

  it("should accept jQuery's guard wrapper as the gateway does", async () => {
    const { url } = await emulator({ wrapper: 'guard' });
    const run = await runUpstreamCheck({ url }, READ);
    expect(run.code).toBe(0);
    expect(verdictOf(run, 'JSONP wrapper')).toBe('as-assumed');
    expect(run.report?.findings.find((f) => f.topic === 'JSONP wrapper')?.detail).toContain('typeof');
  });

  it('should find a 4 KiB request-line limit and write an UPSTREAM_MAX_URL_BYTES the gateway stays within', async () => {
    const upstream = await emulator({ maxUrlBytes: 4096 });
    const run = await runUpstreamCheck({ url: upstream.url }, READ);
    expect(run.code).toBe(0);
    expect(verdictOf(run, 'request-line limit')).toBe('differs');
    const written = Number(run.env.UPSTREAM_MAX_URL_BYTES);
    // The gateway sends request targets of at most (setting - origin - header allowance) bytes.
    const longestTarget = written - upstream.url.length - HEADER_ALLOWANCE_BYTES;
    expect(longestTarget).toBeGreaterThan(4096 - 400);
    expect(longestTarget).toBeLessThan(4096);
    const send = async (targetBytes: number) => {
      const prefix = '/studio/jsonp/getAll?callback=cb&pad=';
      const answer = await request(`${upstream.url}${prefix}${'x'.repeat(targetBytes - prefix.length)}`);
      await answer.body.dump();
      return answer.statusCode;
    };
    expect(await send(longestTarget)).toBe(200);
    expect(await send(4096)).toBe(414);
  });

  it('should extend the message patterns for an upstream worded otherwise, which the gateway then reads right', async () => {
    const errorMessages = {
      'invalid token: log in again': 'Please sign in again (E17)',
      'token expired: log in again': 'Please sign in again (E17)',
      'unknown object name': 'No such collection',
    };
    let skewMillis = 0;
    const upstream = await emulator({ errorMessages, now: () => Date.now() + skewMillis });
    const run = await runUpstreamCheck({ url: upstream.url }, READ);
    expect(run.code).toBe(0);
    expect(verdictOf(run, 'bad token (read)')).toBe('differs');
    expect(verdictOf(run, 'unknown object name')).toBe('differs');
    const auth = run.env.UPSTREAM_AUTH_ERROR_PATTERN ?? '';
    const caller = run.env.UPSTREAM_CALLER_ERROR_PATTERN ?? '';
    expect(new RegExp(auth, 'i').test('Please sign in again (E17)')).toBe(true);
    expect(new RegExp(caller, 'i').test('No such collection')).toBe(true);
    expect(new RegExp(auth, 'i').test('No such collection')).toBe(false);

    const gateway = await startGateway({ upstreamUrl: upstream.url, env: run.env, listen: false });
    try {
      const login = await gateway.post(
        'mutation { login(username: "demo", password: "demo-password") { token } }',
      );
      const token = (login.data as { login: { token: string } }).login.token;
      const auth = { authorization: `Bearer ${token}` };
      const read = (objectName: string) =>
        gateway.post(`{ objects(objectName: "${objectName}", first: 1) { totalCount } }`, {}, auth);
      expect((await read('com.example.LoanType')).errors).toBeUndefined();
      expect((await read('com.example.NoSuchThing')).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      skewMillis = 9 * 3600 * 1000; // the upstream's token (8 hours) has expired
      expect((await read('com.example.LoanType')).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    } finally {
      await gateway.close();
    }
  });

  it('should write LOGIN_METHOD=JSON when the form login answers no token', async () => {
    const { url } = await emulator({ formLoginToken: false });
    const run = await runUpstreamCheck({ url, env: { LOGIN_METHOD: 'FORM' } }, READ);
    expect(run.code).toBe(0);
    expect(run.env.LOGIN_METHOD).toBe('JSON');
    expect(verdictOf(run, 'LOGIN_METHOD')).toBe('differs');
    expect(run.report?.findings.find((f) => f.topic === 'form login')?.detail).toMatch(/no token/);
  });

  it.each(['FORM', 'JSON'] as const)(
    'should say the gateway carries a form login session cookie, and read with it alone (LOGIN_METHOD=%s)',
    async (loginMethod) => {
      const { url } = await emulator({ formLoginSession: 'cookie' });
      const run = await runUpstreamCheck({ url, env: { LOGIN_METHOD: loginMethod } }, [
        ...READ,
        '--allow-writes',
        ...WRITE_TYPE,
      ]);

      expect(run.code).toBe(0);
      expect(run.env.LOGIN_METHOD).toBe(loginMethod);
      expect(verdictOf(run, 'form login')).toBe('as-assumed');
      const form = run.report?.findings.find((f) => f.topic === 'form login')?.detail;
      expect(form).toMatch(
        /no token but a session cookie \(JSESSIONID\): cookie session, the gateway carries it/,
      );
      expect(verdictOf(run, 'login session')).toBe('as-assumed');
      // With the form login chosen, every read and write probe ran on the cookie session.
      const notAsAssumed = run.report?.findings.filter(
        (f) => f.verdict !== 'as-assumed' && f.topic !== 'invalid pattern',
      );
      expect(notAsAssumed).toEqual([]);
    },
  );

  it('should write the default settings for the emulator as it ships, with writes allowed', async () => {
    const upstream = await emulator();
    const run = await runUpstreamCheck({ url: upstream.url }, [...READ, '--allow-writes', ...WRITE_TYPE]);
    expect(run.code).toBe(0);
    expect(run.env).toEqual({
      LOGIN_METHOD: 'JSON',
      UPSTREAM_PAGE_START: 'page0',
      UPSTREAM_MAX_PAGE_SIZE: '1000',
      UPSTREAM_MATCHES: 'regex',
      UPSTREAM_MAX_URL_BYTES: '8192',
      UPSTREAM_SAVE_ID_AT: 'savedObjectId',
      UPSTREAM_SAVE_WITH_ID: 'merges',
      UPSTREAM_UPDATE_FIELDS: 'data',
      // Every declared type's number and reference fields filter by value; every write read back at once.
      UPSTREAM_UNFILTERABLE_FIELDS: '',
      UPSTREAM_WRITE_READ_BACK_MS: '2000',
    });
    const notAsAssumed = run.report?.findings.filter(
      (f) => f.verdict !== 'as-assumed' && f.topic !== 'invalid pattern',
    );
    expect(notAsAssumed).toEqual([]);
    expect(upstream.stats().save).toBeGreaterThanOrEqual(2);
    expect(upstream.stats().update).toBeGreaterThanOrEqual(1);
  });
});

describe('npm run upstream:check, safely', () => {
  it('should write nothing without --allow-writes, even given a scratch type', async () => {
    const upstream = await emulator();
    const run = await runUpstreamCheck({ url: upstream.url }, [...READ, ...WRITE_TYPE]);
    expect(run.code).toBe(0);
    expect(upstream.stats().save).toBe(0);
    expect(upstream.stats().update).toBe(0);
    expect(upstream.stats().getAll).toBeGreaterThan(10);
    expect(verdictOf(run, 'writes')).toBe('cannot-tell');
  });

  it('should never print or write the password, nor the upstream token', async () => {
    const password = 'Sekr1t-Upstream-Check-Pa55';
    const upstream = await emulator({
      users: [
        {
          userId: 'u-check',
          username: 'checker',
          password,
          mobile: '5559999',
          applicationCode: 'demo',
          organizationCodes: ['acme'],
        },
      ],
    });
    const run = await runUpstreamCheck({ url: upstream.url, username: 'checker', password }, [
      ...READ,
      '--allow-writes',
      ...WRITE_TYPE,
    ]);
    expect(run.code).toBe(0);
    for (const output of [run.stdout, run.stderr, run.jsonText, run.envText]) {
      expect(output).not.toContain(password);
      // The emulator's tokens are 32 base64url characters; nothing else the check prints is that long.
      expect(output).not.toMatch(/(?<![\w-])[\w-]{32}(?![\w-])/);
    }
  });

  it("should pace itself and send only patterns the gateway's pattern guard accepts", async () => {
    const upstream = await emulator({ matches: 'find' });
    const arrivals: number[] = [];
    const patterns: string[] = [];
    const proxy = await listenOnLoopback(
      createServer((req, res) => {
        arrivals.push(performance.now());
        const filter = new URL(req.url ?? '/', 'http://x').searchParams.get('filterCommand');
        if (filter !== null) {
          const command = JSON.parse(filter) as { criteria: { value: string }[] };
          patterns.push(...command.criteria.map((c) => c.value));
        }
        forwardRequest(new URL(upstream.url), req, res);
      }),
    );
    try {
      const run = await runUpstreamCheck({ url: proxy.url }, [...READ, '--rate', '10']);
      expect(run.code).toBe(0);
      expect(run.report?.requests).toBe(arrivals.length);
    } finally {
      await proxy.close();
    }
    // At 10 requests a second, any 11 requests start at least a second apart; arrivals may lag their
    // start on a busy machine, so only half of it is asserted (unpaced, they would come within a few ms).
    for (let i = 0; i + 10 < arrivals.length; i++) {
      expect((arrivals[i + 10] ?? 0) - (arrivals[i] ?? 0)).toBeGreaterThan(500);
    }
    expect(patterns.length).toBeGreaterThan(10);
    const guard = defaultPatternGuard();
    const verdicts = await Promise.all(patterns.map((p) => guard.check(p)));
    expect(verdicts.filter((v) => !v.ok)).toEqual([]);
  });

  it('should exit 2 without printing the password when the credentials are bad', async () => {
    const { url } = await emulator();
    const run = await runUpstreamCheck({ url, password: 'wrong-Pa55word-xyz' }, READ);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/bad credentials/);
    expect(run.stdout + run.stderr).not.toContain('wrong-Pa55word-xyz');
  });

  it.each([
    ['an application the account is not in', { env: { APPLICATION_CODE: 'crm' } }, READ, /APPLICATION_CODE/],
    ['an object name the upstream does not know', {}, ['--object-name', 'com.example.Nope'], /--object-name/],
  ] as const)('should exit 2 when the first read is refused for %s', async (_case, target, args, said) => {
    const { url } = await emulator();
    const run = await runUpstreamCheck({ url, ...target }, args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(said);
  });

  it('should exit 2 when the upstream is unreachable', async () => {
    const url = `http://127.0.0.1:${String(await findClosedPort())}`;
    const run = await runUpstreamCheck({ url }, READ);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unreachable/);
  });

  it('should exit 2 when the read address is unreachable though the logins answer', async () => {
    const upstream = await emulator();
    const gone = `http://127.0.0.1:${String(await findClosedPort())}`;
    const run = await runUpstreamCheck({ url: upstream.url, env: { STUDIO_URL: gone } }, READ);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unreachable at STUDIO_URL/);
  });

  it('should exit 2 without the account, never reading one from the command line', async () => {
    const { url } = await emulator();
    const run = await runUpstreamCheck({ url, env: { UPSTREAM_CHECK_PASSWORD: '' } }, READ);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/UPSTREAM_CHECK_USERNAME and UPSTREAM_CHECK_PASSWORD/);
  });

  it('should exit 1 and say CANNOT SERVE for an upstream answering in another callback name', async () => {
    const { url } = await emulator({ faults: { every: 1, mode: 'wrongCallback', operations: ['getAll'] } });
    const run = await runUpstreamCheck({ url }, READ);
    expect(run.code).toBe(1);
    expect(verdictOf(run, 'callback echo')).toBe('cannot-serve');
    expect(run.stdout).toMatch(/CANNOT work with this upstream/);
  });

  it('should refuse a --rate outside its bounds', async () => {
    const { url } = await emulator();
    const run = await runUpstreamCheck({ url }, [...READ, '--rate', '500']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--rate must be/);
  });
});
