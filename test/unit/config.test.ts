import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';

const upstream = {
  API_URL: 'http://127.0.0.1:1/api',
  BASE_URL: 'http://127.0.0.1:1/',
  STUDIO_URL: 'http://127.0.0.1:1',
  SERVER_URL: 'http://127.0.0.1:1',
  APPLICATION_CODE: 'demo',
};

describe('loadConfig', () => {
  it('should start the embedded emulator when no upstream address is set', () => {
    const config = loadConfig({});
    expect(config.upstream).toEqual({ kind: 'embedded', emulatorPort: 0, explicit: false });
    expect(config.introspection).toBe(true);
    expect(config.sessionSecret).toBeUndefined();
  });

  it('should run the emulator in production only when UPSTREAM=emulator asks for it', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(32),
      UPSTREAM: 'emulator',
    });
    expect(config.upstream).toEqual({ kind: 'embedded', emulatorPort: 0, explicit: true });
  });

  it('should use the four addresses when all are set', () => {
    expect(loadConfig(upstream).upstream.kind).toBe('remote');
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid setting PORT: /],
    [{ API_URL: 'http://127.0.0.1:1' }, /^Invalid setting BASE_URL, STUDIO_URL, SERVER_URL: /],
    [{ ...upstream, STUDIO_URL: 'ftp://x' }, /^Invalid setting STUDIO_URL: /],
    [{ NODE_ENV: 'production', UPSTREAM: 'emulator' }, /^Invalid setting SESSION_SECRET: /],
    [
      { NODE_ENV: 'production' },
      /^Invalid setting API_URL, BASE_URL, STUDIO_URL, SERVER_URL: required in production/,
    ],
    [{ ...upstream, UPSTREAM: 'emulator' }, /^Invalid setting UPSTREAM: /],
    [{ UPSTREAM: 'demo' }, /^Invalid setting UPSTREAM: /],
    [{ SESSION_SECRET: 'short' }, /^Invalid setting SESSION_SECRET: must be at least 32 characters$/],
    [{ UPSTREAM_MATCHES: 'fuzzy' }, /^Invalid setting UPSTREAM_MATCHES: /],
    [{ UPSTREAM_AUTH_ERROR_PATTERN: '(' }, /^Invalid setting UPSTREAM_AUTH_ERROR_PATTERN: /],
    [{ ...upstream, APPLICATION_CODE: '' }, /^Invalid setting APPLICATION_CODE: /],
  ])('should stop with one line naming the setting for %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('should turn introspection and the landing page off in production unless asked', () => {
    const secret = { ...upstream, NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) };
    expect(loadConfig(secret)).toMatchObject({ introspection: false, landingPage: false, production: true });
    expect(loadConfig({ ...secret, INTROSPECTION: 'true' }).introspection).toBe(true);
  });
});
