/**
 * `npm start` and `npm run example` are one gateway process (`src/app/run-gateway.ts`): the example's
 * embedded emulator follows `UPSTREAM_MATCHES`, `UPSTREAM_PAGE_START` and the team's object types exactly as
 * `npm start`'s does, because neither command starts an emulator, a gateway or a shutdown of its own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emulatorSwitchesOf, ignoredEmulatorSettingsLine } from '../../src/app/start-embedded-emulator.ts';
import { loadConfig } from '../../src/config/load-config.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe.each(['src/main.ts', 'scripts/example.ts'])('%s', (path) => {
  const source = read(path);

  it('should start the gateway process through runGateway', () => {
    expect(source).toMatch(/runGateway\(\{/);
  });

  it('should start no emulator, gateway, listener or shutdown of its own', () => {
    expect(source).not.toMatch(/\bstartEmulator\b|\bstartEmbeddedEmulator\b/);
    expect(source).not.toMatch(/\bcreateGateway\b|\bcreateShutdown\b|\bhandleStopSignals\b/);
    expect(source).not.toMatch(/process\.on\('SIG/);
  });
});

it("should start the embedded emulator on the settings' UPSTREAM_* switches", () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    UPSTREAM_MATCHES: 'exact',
    UPSTREAM_PAGE_START: 'offset',
    UPSTREAM_SAVE_ID_AT: 'data._id',
    UPSTREAM_SAVE_WITH_ID: 'replaces',
    UPSTREAM_UPDATE_FIELDS: 'params',
    UPSTREAM_METADATA_KEY: 'metadata',
    SESSION_SECRET: 's'.repeat(40),
  });
  expect(config.upstream.kind).toBe('embedded');
  expect(emulatorSwitchesOf(config)).toEqual({
    matches: 'exact',
    matchesCase: 'sensitive',
    metadataKey: 'metadata',
    pageStart: 'offset',
    saveIdAt: 'data._id',
    saveWithId: 'replaces',
    updateFields: 'params',
  });
  // The embedded emulator's options come from that one function, the team's object types beside it.
  const embedded = read('src/app/start-embedded-emulator.ts');
  expect(embedded).toMatch(/\.\.\.emulatorSwitchesOf\(config\)/);
  expect(embedded).toMatch(/objectTypes: readObjectTypes\(process\.env\)/);
});

describe('the emulator settings npm start ignores', () => {
  it('should name each one set, and say what to do instead', () => {
    const line = ignoredEmulatorSettingsLine({
      EMULATOR_PAGE_START: 'page1',
      EMULATOR_CHARSET: 'iso-8859-1',
      EMULATOR_PORT: '4010',
      EMULATOR_DATA_FILE: 'demo.json',
      EMULATOR_OBJECT_TYPES: 'com.acme.Invoice',
      UPSTREAM_PAGE_START: 'page1',
    });
    expect(line).toMatch(/^npm start ignores EMULATOR_CHARSET, EMULATOR_PAGE_START: /);
    expect(line).toContain('run `npm run emulator` with it and point the gateway at it');
  });

  it('should say nothing when only the settings it reads are set', () => {
    expect(ignoredEmulatorSettingsLine({ EMULATOR_PORT: '0', EMULATOR_DATA_FILE: 'x.json' })).toBeUndefined();
  });
});
