/**
 * `npm run upstream:check` as a whole, against the emulator: every probe answers on its own (one CANNOT
 * SERVE row hides no other), it never says "can work" without one object type read, the caller-error
 * pattern it recommends matches the upstream's message for any name, and its exit codes are the README's.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type EmulatorOptions } from '../../emulator/index.ts';
import { startGateway } from '../support/gateway-harness.ts';
import { runUpstreamCheck, verdictOf, type CheckRun } from './check-command.ts';
import { useCheckEmulators } from './check-emulators.ts';

const emulator = useCheckEmulators();

const cannotServe = (run: CheckRun) =>
  run.report?.findings.filter((f) => f.verdict === 'cannot-serve').map((f) => f.topic);

/** An upstream that names the refused type in the middle of a sentence, past its 40th character. */
const NAMING_UPSTREAM: EmulatorOptions = {
  errorMessages: {
    'unknown object name':
      "Error while processing the request: the business object type '{objectName}' is not registered for this application (check the spelling)",
  },
};

describe('npm run upstream:check, every probe on its own', () => {
  it('should report both CANNOT SERVE rows of an upstream with two faults, and every read probe after them', async () => {
    // Another callback name in every read answer, and a request-line limit no gateway request fits in.
    const { url } = await emulator({
      maxUrlBytes: 600,
      faults: { every: 1, mode: 'wrongCallback', operations: ['getAll'] },
    });
    const run = await runUpstreamCheck({ url }, ['--object-name', 'com.example.Order']);
    expect(run.code).toBe(1);
    expect(cannotServe(run)).toEqual(expect.arrayContaining(['callback echo', 'request-line limit']));
    expect(verdictOf(run, 'pageStart base')).toBe('as-assumed');
    for (const topic of ['largest page size', 'totalCount', 'matches semantics', 'getObject', 'writes']) {
      expect(verdictOf(run, topic), topic).toBeDefined();
    }
    expect(run.stdout).toMatch(/CANNOT work with this upstream/);
  });
});

describe('npm run upstream:check, what a probe needs and could not get', () => {
  it('should say why each read probe was not run when the reads of the type cannot be decoded, and run the others', async () => {
    const { url } = await emulator({ faults: { every: 1, mode: 'garbage', operations: ['getAll'] } });
    const run = await runUpstreamCheck({ url }, ['--object-name', 'com.example.Order']);
    expect(run.code).toBe(1);
    expect(verdictOf(run, 'getAll')).toBe('cannot-serve');
    for (const topic of ['paging', 'matches', 'getObject and metadata', 'request-line limit']) {
      const finding = run.report?.findings.find((f) => f.topic === topic);
      expect(finding, topic).toMatchObject({ verdict: 'cannot-tell' });
      expect(finding?.detail).toMatch(/not probed: no object type was read/);
    }
    expect(verdictOf(run, 'bad token (read)')).toBeDefined();
  });

  it('should give every question of a probe that stopped early a row that says so', async () => {
    // Reads answered HTTP 500: the first read has no answer to tell its wrapper or callback by.
    const { url } = await emulator({ faults: { every: 1, mode: 'error500', operations: ['getAll'] } });
    const run = await runUpstreamCheck({ url }, ['--object-name', 'com.example.Order']);
    expect(verdictOf(run, 'getAll')).toBe('cannot-serve');
    for (const topic of ['JSONP wrapper', 'callback echo']) {
      expect(run.report?.findings.find((f) => f.topic === topic)?.detail, topic).toMatch(/not asked/);
    }
  });

  it('should say why every probe was not run when no login answered a token', async () => {
    const { url } = await emulator({
      formLoginToken: false,
      faults: { every: 1, mode: 'garbage', operations: ['loginJson'] },
    });
    const run = await runUpstreamCheck({ url }, ['--object-name', 'com.example.Order']);
    expect(run.code).toBe(1);
    expect(verdictOf(run, 'LOGIN_METHOD')).toBe('cannot-serve');
    const detail = run.report?.findings.find((f) => f.topic === 'getAll')?.detail;
    expect(detail).toMatch(/not probed: no login answered a token/);
  });
});

describe('npm run upstream:check, never "can work" without a type read', () => {
  it('should find a type of OBJECT_TYPES_DIR (the demo types) without --object-name, and read it', async () => {
    const { url } = await emulator();
    const run = await runUpstreamCheck({ url }, []);
    expect(run.code).toBe(0);
    expect(['com.example.Customer', 'com.example.LoanType', 'com.example.Order']).toContain(
      run.report?.objectName,
    );
    expect(verdictOf(run, 'object type')).toBe('as-assumed');
    for (const topic of [
      'getAll',
      'pageStart base',
      'matches semantics',
      'getObject',
      'request-line limit',
    ]) {
      expect(verdictOf(run, topic), topic).toBe('as-assumed');
    }
  });

  it('should exit 1, not 0, without --object-name against an upstream whose reads the gateway cannot take', async () => {
    const { url } = await emulator({ faults: { every: 1, mode: 'wrongCallback', operations: ['getAll'] } });
    const run = await runUpstreamCheck({ url }, []);
    expect(run.code).toBe(1);
    expect(verdictOf(run, 'callback echo')).toBe('cannot-serve');
  });

  it('should exit 2 without --object-name when the upstream knows none of the declared types', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'upstream-check-types-'));
    writeFileSync(
      join(dir, 'invoice.graphql'),
      'type Invoice @dataObject(name: "com.acme.Invoice") {\n  id: ID!\n  number: String\n}\n',
    );
    const { url } = await emulator();
    const run = await runUpstreamCheck({ url, env: { OBJECT_TYPES_DIR: dir } }, []);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refused every type .*com\.acme\.Invoice: unknown.*--object-name/);
  });

  it('should exit 2 without --object-name when no type is declared, before any request', async () => {
    const upstream = await emulator();
    const { url } = upstream;
    const run = await runUpstreamCheck(
      { url, env: { OBJECT_TYPES_DIR: mkdtempSync(join(tmpdir(), 'none-')) } },
      [],
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/declares no type to read: pass --object-name/);
    expect(upstream.stats().loginJson).toBe(0);
  });
});

describe('npm run upstream:check, the caller-error pattern for any name', () => {
  it('should recommend a pattern that makes a real typo BAD_USER_INPUT in the gateway', async () => {
    const upstream = await emulator(NAMING_UPSTREAM);
    const run = await runUpstreamCheck({ url: upstream.url }, ['--object-name', 'com.example.Order']);
    expect(run.code).toBe(0);
    expect(verdictOf(run, 'unknown object name')).toBe('differs');
    const pattern = new RegExp(run.env.UPSTREAM_CALLER_ERROR_PATTERN ?? '', 'i');
    const say = (name: string) =>
      NAMING_UPSTREAM.errorMessages?.['unknown object name']?.replace('{objectName}', name) ?? '';
    expect(pattern.test(say('com.example.Ordr'))).toBe(true);
    expect(pattern.test('invalid token: log in again')).toBe(false);

    const gateway = await startGateway({ upstreamUrl: upstream.url, env: run.env, listen: false });
    try {
      const login = await gateway.post(
        'mutation { login(username: "demo", password: "demo-password") { token } }',
      );
      const token = (login.data as { login: { token: string } }).login.token;
      const read = (objectName: string) =>
        gateway.post(
          `{ objects(objectName: "${objectName}", first: 1) { totalCount } }`,
          {},
          {
            authorization: `Bearer ${token}`,
          },
        );
      expect((await read('com.example.Order')).errors).toBeUndefined();
      expect((await read('com.example.Ordr')).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    } finally {
      await gateway.close();
    }
  });

  it('should recommend no pattern, and say to set one by hand, when the answer is nothing but the name', async () => {
    const { url } = await emulator({ errorMessages: { 'unknown object name': '{objectName}' } });
    const run = await runUpstreamCheck({ url }, ['--object-name', 'com.example.Order']);
    expect(verdictOf(run, 'unknown object name')).toBe('cannot-tell');
    expect(run.env.UPSTREAM_CALLER_ERROR_PATTERN).toBeUndefined();
    expect(run.report?.findings.find((f) => f.topic === 'unknown object name')?.detail).toMatch(/by hand/);
  });

  it('should exit 2, the check could not run, for an --object-name such an upstream does not know', async () => {
    const { url } = await emulator(NAMING_UPSTREAM);
    const run = await runUpstreamCheck({ url }, ['--object-name', 'com.example.Ordr']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refuses --object-name com\.example\.Ordr .*name an existing type/);
  });
});
