/** The settings: defaults as documented, the upstream target, and one clear line naming a bad setting. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.ts';
import { DERIVATION_INPUTS, SETTINGS } from '../../src/config/env-schema.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { settingsOf } from '../../src/config/setting.ts';
import { upstreamUrlsAt, upstreamUrlsOf, withEmulatorAt } from '../../src/config/upstream-urls.ts';

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
    expect(upstreamUrlsOf(loadConfig(upstream))).toEqual({
      apiUrl: 'http://127.0.0.1:1/api',
      baseUrl: 'http://127.0.0.1:1/',
      studioUrl: 'http://127.0.0.1:1',
      serverUrl: 'http://127.0.0.1:1',
    });
  });

  it("should take all four addresses at the embedded emulator's, once it listens", () => {
    const config = loadConfig({});
    expect(() => upstreamUrlsOf(config)).toThrow(/embedded emulator has not started/);
    const ready = withEmulatorAt(config, 'http://127.0.0.1:4010');
    expect(ready.upstream.kind).toBe('embedded');
    expect(upstreamUrlsOf(ready)).toEqual(upstreamUrlsAt('http://127.0.0.1:4010'));
    expect(() => withEmulatorAt(loadConfig(upstream), 'http://127.0.0.1:4010')).toThrow(/remote upstream/);
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid setting PORT: /],
    [{ API_URL: 'http://127.0.0.1:1' }, /^Invalid setting BASE_URL, STUDIO_URL, SERVER_URL: /],
    [{ ...upstream, STUDIO_URL: 'ftp://x' }, /^Invalid setting STUDIO_URL: /],
    [{ NODE_ENV: 'production', UPSTREAM: 'emulator' }, /^Invalid setting SESSION_SECRET: /],
    [{ NODE_ENV: 'production' }, /^Invalid setting API_URL: required in production/],
    [{ ...upstream, UPSTREAM: 'emulator' }, /^Invalid setting UPSTREAM: /],
    [{ UPSTREAM: 'demo' }, /^Invalid setting UPSTREAM: /],
    [{ SESSION_SECRET: 'short' }, /^Invalid setting SESSION_SECRET: must be at least 32 characters$/],
    [{ UPSTREAM_MATCHES: 'fuzzy' }, /^Invalid setting UPSTREAM_MATCHES: /],
    [
      { UPSTREAM_MATCHES: 'exact', UPSTREAM_MATCHES_CASE: 'insensitive' },
      /^Invalid setting UPSTREAM_MATCHES_CASE: cannot be insensitive with UPSTREAM_MATCHES=exact/,
    ],
    [{ UPSTREAM_AUTH_ERROR_PATTERN: '(' }, /^Invalid setting UPSTREAM_AUTH_ERROR_PATTERN: /],
    [{ ...upstream, APPLICATION_CODE: '' }, /^Invalid setting APPLICATION_CODE: /],
  ])('should stop with one line naming the setting for %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('should require ORGANIZATION_CODE in production, unless each login chooses from ALLOWED_ORGANIZATION_CODES', () => {
    const production = { ...upstream, NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) };
    expect(() => loadConfig(production)).toThrow(
      /^Invalid setting ORGANIZATION_CODE: required in production/,
    );
    expect(loadConfig({ ...production, ORGANIZATION_CODE: 'acme' }).organizationCode).toBe('acme');
    const chosen = loadConfig({ ...production, ALLOWED_ORGANIZATION_CODES: 'acme,globex' });
    expect(chosen).toMatchObject({
      organizationCode: undefined,
      allowedOrganizationCodes: ['acme', 'globex'],
    });
  });

  it('should list every problem at once, one line each, the malformed and the missing alike', () => {
    const problems = (env: Record<string, string>): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as Error).message.split('\n');
      }
    };
    expect(
      problems({
        NODE_ENV: 'production',
        UPSTREAM: 'emulator',
        DEFAULT_PAGE_SIZE: '500',
        MAX_PAGE_SIZE: '100',
      }),
    ).toEqual([
      'Invalid setting SESSION_SECRET: required in production (at least 32 characters)',
      'Invalid setting DEFAULT_PAGE_SIZE: must not exceed MAX_PAGE_SIZE',
    ]);
    expect(
      problems({ ...upstream, PORT: 'eighty', LOGIN_METHOD: 'SOAP', NODE_ENV: 'prod' }).map(
        (line) => line.split(':')[0],
      ),
    ).toEqual(['Invalid setting NODE_ENV', 'Invalid setting PORT', 'Invalid setting LOGIN_METHOD']);
  });

  it.each(['prod', 'Production', 'dev', 'TEST'])(
    'should refuse NODE_ENV=%s, naming the accepted values',
    (value) => {
      expect(() => loadConfig({ NODE_ENV: value })).toThrow(
        'Invalid setting NODE_ENV: must be one of production, development, test (exactly; unset means development)',
      );
    },
  );

  it('should turn introspection and the landing page off in production unless asked', () => {
    const secret = {
      ...upstream,
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(32),
      ORGANIZATION_CODE: 'acme',
    };
    expect(loadConfig(secret)).toMatchObject({ introspection: false, landingPage: false, production: true });
    expect(loadConfig({ ...secret, INTROSPECTION: 'true' }).introspection).toBe(true);
  });
});

describe('the settings described once', () => {
  it('should read each variable once, into the field its description names', () => {
    const variables = [...settingsOf(SETTINGS), ...settingsOf(DERIVATION_INPUTS)].map((s) => s.env);
    expect(new Set(variables).size).toBe(variables.length);
    const config = loadConfig({
      MAX_DEPTH: '7',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
      LOGIN_BLOCK_SECONDS: '5',
      UPSTREAM_MAX_QUEUED: '3',
      TRUSTED_DOCUMENTS: 'a.json, ,b.json',
      UPSTREAM_PAGE_START: 'offset',
      SESSION_TTL_SECONDS: '120',
    });
    expect(config).toMatchObject({
      queryLimits: { maxDepth: 7, maxAliases: 15 },
      http: { keepAliveTimeoutMillis: 1000 },
      login: { blockSeconds: 5 },
      resilience: { maxQueuedCalls: 3, maxConcurrentCalls: 64 },
      trustedDocuments: { files: ['a.json', 'b.json'], only: false },
      pageStartMode: 'offset',
      sessionTtlSeconds: 120,
    });
  });

  it('should give a session a quarter of the bulkhead unless its share is set, at least one call', () => {
    const share = (env: Record<string, string>) => loadConfig(env).resilience.maxConcurrentCallsPerSession;
    expect(share({})).toBe(16);
    expect(share({ UPSTREAM_MAX_CONCURRENT: '10' })).toBe(2);
    expect(share({ UPSTREAM_MAX_CONCURRENT: '3' })).toBe(1);
    expect(share({ UPSTREAM_MAX_CONCURRENT: '10', UPSTREAM_MAX_CONCURRENT_PER_SESSION: '7' })).toBe(7);
  });
});

describe('hardening settings', () => {
  it('should default to the documented limits, login protection, resilience and shutdown values', () => {
    const config = loadConfig({});
    expect(config.queryLimits).toMatchObject({
      maxDepth: 6,
      maxAliases: 15,
      maxDirectives: 50,
      maxTokens: 1000,
      maxCost: 10_000,
    });
    expect(config.maxBodyBytes).toBe(100_000);
    expect(config.documentLimits).toMatchObject({
      maxBytes: 32_768,
      maxCommentBytes: 4_096,
      cacheBytes: 16_777_216,
    });
    expect(config.connectionLimits).toMatchObject({
      maxConnections: 1_024,
      maxConnectionsPerAddress: 64,
      maxInflightBodyBytes: 33_554_432,
      maxInflightBodyBytesPerAddress: 8_388_608,
    });
    expect(config.trustedProxies).toEqual([]);
    expect(config.redisUrl).toBeUndefined();
    expect(config.login).toMatchObject({
      maxConsecutiveFailures: 10,
      blockSeconds: 3600,
      maxFailuresPerUser: 100,
      maxFailuresPerIp: 100,
      maxTrackedCounters: 50_000,
      minFailureMillis: 400,
      deviceTtlSeconds: 7_776_000,
    });
    expect(config.resilience).toMatchObject({
      readRetries: 2,
      retryBudgetPercent: 20,
      breakerFailurePercent: 50,
      breakerWindowMillis: 10_000,
      breakerMinimumCalls: 20,
      breakerMinimumSources: 2,
      breakerHalfOpenAfterMillis: 5000,
      maxConcurrentCalls: 64,
      maxQueuedCalls: 512,
      maxConcurrentCallsPerSession: 16,
      maxQueuedCallsPerSession: 64,
      maxInflightAnswerBytes: 32 * 1024 * 1024,
      maxInflightAnswerBytesPerUser: 16 * 1024 * 1024,
    });
    expect(config.upstreamRequestLimits).toMatchObject({
      maxIdLength: 256,
      maxUrlBytes: 8192,
      maxDataDepth: 32,
      maxDataBytes: 1_048_576,
    });
    expect(config.maxUpstreamCallsPerRequest).toBe(50);
    expect(config.maxPatternLength).toBe(512);
    expect(config.readinessRequiresUpstream).toBe(false);
    expect(config.shutdown).toMatchObject({ delayMillis: 0, graceMillis: 10_000 });
    expect(config.requestTimeoutMillis).toBeGreaterThan(config.upstreamCallTimeoutMillis);
    expect(config.http).toMatchObject({
      requestTimeoutMillis: 10_000,
      headersTimeoutMillis: 5_000,
      keepAliveTimeoutMillis: 72_000,
      connectionTimeoutMillis: 30_000,
    });
  });

  it('should read trusted proxies as addresses, CIDR ranges and names', () => {
    expect(
      loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustedProxies,
    ).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback']);
  });

  it.each([
    ['TRUSTED_PROXIES', { TRUSTED_PROXIES: 'proxy.example.com' }],
    ['TRUSTED_PROXIES', { TRUSTED_PROXIES: '10.0.0.0/33' }],
    ['REDIS_URL', { REDIS_URL: 'http://redis:6379' }],
    ['MAX_DEPTH', { MAX_DEPTH: '0' }],
    ['MAX_BODY_BYTES', { MAX_BODY_BYTES: 'lots' }],
    ['UPSTREAM_RETRY_BUDGET_PERCENT', { UPSTREAM_RETRY_BUDGET_PERCENT: '150' }],
    ['UPSTREAM_BREAKER_FAILURE_PERCENT', { UPSTREAM_BREAKER_FAILURE_PERCENT: '100' }],
    ['UPSTREAM_MAX_URL_BYTES', { UPSTREAM_MAX_URL_BYTES: '10' }],
    ['UPSTREAM_CALLER_ERROR_PATTERN', { UPSTREAM_CALLER_ERROR_PATTERN: '(' }],
    ['REQUEST_TIMEOUT_MS', { REQUEST_TIMEOUT_MS: '5000', UPSTREAM_CALL_TIMEOUT_MS: '5000' }],
    ['HTTP_HEADERS_TIMEOUT_MS', { HTTP_HEADERS_TIMEOUT_MS: '20000' }],
    ['HTTP_CONNECTION_TIMEOUT_MS', { HTTP_CONNECTION_TIMEOUT_MS: '15000' }],
    ['HTTP_REQUEST_TIMEOUT_MS', { HTTP_REQUEST_TIMEOUT_MS: '0' }],
    ['MAX_DOCUMENT_BYTES', { MAX_DOCUMENT_BYTES: '10' }],
    ['MAX_CONNECTIONS_PER_ADDRESS', { MAX_CONNECTIONS: '100', MAX_CONNECTIONS_PER_ADDRESS: '200' }],
    [
      'MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS',
      { MAX_INFLIGHT_BODY_BYTES: '2000000', MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS: '3000000' },
    ],
    ['MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS', { MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS: '50000' }],
    // A largest answer (8 MiB, announced whole) must fit beside a small one of the same user.
    [
      'UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER',
      { UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER: '8388608' },
    ],
  ])('should refuse a bad %s with one line naming it', (name, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid setting ${name}:`));
  });
});
