import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { readEmulatorConfig as readConfig } from '../../emulator/emulator-config.ts';
import { startProcess, stopProcess } from '../../support/child-process.ts';
import { EMULATOR_MAIN, startEmulatorCommand } from '../support/emulator-command.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';

/** The emulator's settings from `env`, its team types from the demo folder (not the repository's). */
const readEmulatorConfig = (env: Record<string, string>) =>
  readConfig({ OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR, ...env });

/** Runs the command with the given environment (no port: it must fail before it listens). */
function run(env: Record<string, string>) {
  return startProcess({
    name: 'emulator',
    args: [EMULATOR_MAIN],
    env: { PATH: process.env.PATH ?? '', OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR, ...env },
  });
}

describe('npm run emulator', () => {
  it('should print one line with the node version, URL and demo login, serve, and stop on SIGTERM', async () => {
    const { process: emulator, url } = await startEmulatorCommand({ EMULATOR_WRAPPER: 'guard' });
    // Ready (its healthz answered) comes after the line is written; the pipe may still hold it.
    while (!emulator.stdout().includes('\n')) await once(emulator.child.stdout!, 'data');
    const line = emulator.stdout().trim();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain(process.version);
    expect(line).toContain('demo / demo-password');
    expect(/(http:\/\/127\.0\.0\.1:\d+)/.exec(line)![1]!).toBe(url);
    const login = await fetch(`${url}/v1/user/login`, {
      method: 'POST',
      body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
    });
    expect(((await login.json()) as { status: string }).status).toBe('success');
    expect((await stopProcess(emulator)).code).toBe(0);
    expect(emulator.stderr()).toBe('');
  });

  it.each([
    ['EMULATOR_PORT', { EMULATOR_PORT: 'eighty' }],
    ['EMULATOR_PORT', { EMULATOR_PORT: '70000' }],
    ['EMULATOR_WRAPPER', { EMULATOR_WRAPPER: 'fancy' }],
    ['UPSTREAM_MATCHES', { UPSTREAM_MATCHES: 'glob' }],
    ['EMULATOR_PAGE_START', { EMULATOR_PAGE_START: 'page2' }],
    ['EMULATOR_LATENCY_MS', { EMULATOR_LATENCY_MS: '-5' }],
    ['EMULATOR_MAX_URL_BYTES', { EMULATOR_MAX_URL_BYTES: '4k' }],
    ['EMULATOR_ERROR_MESSAGES', { EMULATOR_ERROR_MESSAGES: '{"unknown object name": 17}' }],
    ['EMULATOR_FAULT_MODE', { EMULATOR_FAULT_EVERY: '3' }],
  ])('should exit 1 with one line naming %s when it is bad', async (name, env) => {
    const emulator = run(env);
    expect((await emulator.exit).code).toBe(1);
    const lines = emulator.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(emulator.stdout()).toBe('');
  });
});

describe('readEmulatorConfig', () => {
  it('should default to port 4010 on 127.0.0.1, plain wrapper, regex, page0 and no faults', () => {
    // A folder of the demo types only: the shipped schema/objects/ may hold a team's own.
    expect(readEmulatorConfig({ OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR })).toEqual({
      port: 4010,
      host: '127.0.0.1',
      wrapper: 'plain',
      matches: 'regex',
      pageStart: 'page0',
      latencyMillis: 0,
      tokenTtlSeconds: 28_800,
    });
  });

  it('should take matches and pageStart from the UPSTREAM_ settings unless the EMULATOR_ ones are set', () => {
    expect(readEmulatorConfig({ UPSTREAM_MATCHES: 'exact', UPSTREAM_PAGE_START: 'offset' })).toMatchObject({
      matches: 'exact',
      pageStart: 'offset',
    });
    expect(
      readEmulatorConfig({
        UPSTREAM_MATCHES: 'exact',
        EMULATOR_MATCHES: 'regex',
        EMULATOR_PAGE_START: 'page1',
      }),
    ).toMatchObject({ matches: 'regex', pageStart: 'page1' });
  });

  it('should read the write dialects, following the UPSTREAM_ settings unless the EMULATOR_ ones are set', () => {
    expect(
      readEmulatorConfig({
        UPSTREAM_SAVE_ID_AT: 'data',
        EMULATOR_SAVE_ID_AT: 'data._id',
        UPSTREAM_SAVE_WITH_ID: 'replaces',
        EMULATOR_UPDATE_FIELDS: 'params',
      }),
    ).toMatchObject({ saveIdAt: 'data._id', saveWithId: 'replaces', updateFields: 'params' });
    expect(() => readEmulatorConfig({ EMULATOR_UPDATE_FIELDS: 'query' })).toThrow(/EMULATOR_UPDATE_FIELDS/);
  });

  it('should read the dialect settings: part matching, the request-line limit, the largest page', () => {
    expect(
      readEmulatorConfig({
        UPSTREAM_MATCHES: 'find',
        EMULATOR_MAX_URL_BYTES: '4096',
        EMULATOR_MAX_PAGE_SIZE: '150',
        EMULATOR_PAGE_ZERO: 'empty',
        EMULATOR_TOTAL_COUNT: 'omit-when-empty',
        EMULATOR_ERROR_MESSAGES: '{"unknown object name": "No such collection"}',
      }),
    ).toMatchObject({
      matches: 'find',
      maxUrlBytes: 4096,
      maxPageSize: 150,
      pageZero: 'empty',
      totalCount: 'omit-when-empty',
      errorMessages: { 'unknown object name': 'No such collection' },
    });
  });

  it('should read the form login dialect: a session cookie instead of a token', () => {
    expect(readEmulatorConfig({ EMULATOR_FORM_LOGIN_SESSION: 'cookie' })).toMatchObject({
      formLoginSession: 'cookie',
    });
    expect(() => readEmulatorConfig({ EMULATOR_FORM_LOGIN_SESSION: 'jsessionid' })).toThrow(
      /EMULATOR_FORM_LOGIN_SESSION/,
    );
  });

  it('should read the case and metadata-key dialects, following the UPSTREAM_ settings unless told otherwise', () => {
    expect(
      readEmulatorConfig({ EMULATOR_MATCHES_CASE: 'insensitive', EMULATOR_METADATA_KEY: 'metadata' }),
    ).toMatchObject({
      matchesCase: 'insensitive',
      metadataKey: 'metadata',
    });
    expect(
      readEmulatorConfig({
        UPSTREAM_MATCHES_CASE: 'insensitive',
        UPSTREAM_METADATA_KEY: 'meta',
        EMULATOR_MATCHES_CASE: 'sensitive',
      }),
    ).toMatchObject({ matchesCase: 'sensitive', metadataKey: 'meta' });
    expect(() => readEmulatorConfig({ EMULATOR_METADATA_KEY: 'a.b' })).toThrow(/^EMULATOR_METADATA_KEY: /);
  });

  it('should read the data file, latency and faults', () => {
    expect(
      readEmulatorConfig({
        EMULATOR_DATA_FILE: '/tmp/x.json',
        EMULATOR_LATENCY_MS: '15',
        EMULATOR_FAULT_EVERY: '4',
        EMULATOR_FAULT_MODE: 'truncated',
        EMULATOR_FAULT_OPERATIONS: 'getAll, save',
      }),
    ).toMatchObject({
      dataFile: '/tmp/x.json',
      latencyMillis: 15,
      faults: { every: 4, mode: 'truncated', operations: ['getAll', 'save'] },
    });
  });
});
