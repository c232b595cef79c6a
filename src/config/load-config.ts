/**
 * Every setting of the gateway, read from the environment and validated once at start. A bad setting stops
 * the start with one clear line that names it (`loadConfig` throws a `ConfigError`).
 */
import { ConfigError } from './config-error.ts';
import { SETTING_DEFAULTS } from './defaults.ts';
import { envSchema } from './env-schema.ts';
import type { GatewayConfig, UpstreamTarget } from './gateway-config.ts';

const UPSTREAM_KEYS = ['API_URL', 'BASE_URL', 'STUDIO_URL', 'SERVER_URL'] as const;

/**
 * Reads and validates the settings.
 * @throws ConfigError naming the first bad setting.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(blankless);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? 'settings');
    throw new ConfigError(`Invalid setting ${key}: ${issue?.message ?? 'invalid'}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const set = UPSTREAM_KEYS.filter((k) => e[k] !== undefined);
  if (set.length > 0 && set.length < UPSTREAM_KEYS.length) {
    const missing = UPSTREAM_KEYS.filter((k) => e[k] === undefined).join(', ');
    throw new ConfigError(
      `Invalid setting ${missing}: set all four upstream addresses, or none for the emulator`,
    );
  }
  if (e.UPSTREAM === 'emulator' && set.length > 0) {
    throw new ConfigError(
      `Invalid setting UPSTREAM: "emulator" cannot be combined with ${set.join(', ')}; unset one or the other`,
    );
  }
  // Production never runs on demo data by accident: the embedded emulator must be asked for by name.
  if (production && set.length === 0 && e.UPSTREAM !== 'emulator') {
    throw new ConfigError(
      `Invalid setting ${UPSTREAM_KEYS.join(', ')}: required in production (or UPSTREAM=emulator to run on the demo emulator on purpose)`,
    );
  }
  const upstream: UpstreamTarget =
    e.API_URL && e.BASE_URL && e.STUDIO_URL && e.SERVER_URL
      ? {
          kind: 'remote',
          urls: { apiUrl: e.API_URL, baseUrl: e.BASE_URL, studioUrl: e.STUDIO_URL, serverUrl: e.SERVER_URL },
        }
      : {
          kind: 'embedded',
          emulatorPort: e.EMULATOR_PORT,
          explicit: e.UPSTREAM === 'emulator',
          ...(e.EMULATOR_DATA_FILE === undefined ? {} : { dataFile: e.EMULATOR_DATA_FILE }),
        };
  if (upstream.kind === 'remote' && e.APPLICATION_CODE === undefined) {
    throw new ConfigError('Invalid setting APPLICATION_CODE: required when the upstream addresses are set');
  }
  if (production && e.SESSION_SECRET === undefined) {
    throw new ConfigError('Invalid setting SESSION_SECRET: required in production (at least 32 characters)');
  }
  if (e.DEFAULT_PAGE_SIZE > e.MAX_PAGE_SIZE) {
    throw new ConfigError('Invalid setting DEFAULT_PAGE_SIZE: must not exceed MAX_PAGE_SIZE');
  }
  if (e.REQUEST_TIMEOUT_MS <= e.UPSTREAM_CALL_TIMEOUT_MS) {
    // Otherwise a slow upstream answer would be cut by the request's deadline instead of its own.
    throw new ConfigError('Invalid setting REQUEST_TIMEOUT_MS: must exceed UPSTREAM_CALL_TIMEOUT_MS');
  }
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    // Node refuses to start a server whose headers may take longer than the whole request.
    throw new ConfigError('Invalid setting HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  if (e.HTTP_CONNECTION_TIMEOUT_MS <= e.REQUEST_TIMEOUT_MS) {
    // A request's execution sends nothing on its socket: a shorter idle limit would cut slow answers.
    throw new ConfigError('Invalid setting HTTP_CONNECTION_TIMEOUT_MS: must exceed REQUEST_TIMEOUT_MS');
  }
  const trustedFiles = (e.TRUSTED_DOCUMENTS ?? '')
    .split(',')
    .map((file) => file.trim())
    .filter((file) => file !== '');
  if (e.TRUSTED_DOCUMENTS_ONLY && trustedFiles.length === 0) {
    // Otherwise every request would be refused: say so at start, not on the first request.
    throw new ConfigError(
      'Invalid setting TRUSTED_DOCUMENTS_ONLY: needs TRUSTED_DOCUMENTS (the manifest files)',
    );
  }
  return {
    production,
    objectTypesDir: e.OBJECT_TYPES_DIR,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS ?? (production ? 'errors' : 'all'),
    upstream,
    applicationCode: e.APPLICATION_CODE ?? SETTING_DEFAULTS.APPLICATION_CODE,
    organizationCode:
      e.ORGANIZATION_CODE ?? (upstream.kind === 'embedded' ? SETTING_DEFAULTS.ORGANIZATION_CODE : undefined),
    sessionSecret: e.SESSION_SECRET,
    sessionSecretPrevious: e.SESSION_SECRET_PREVIOUS,
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    allowedOrganizationCodes: e.ALLOWED_ORGANIZATION_CODES,
    loginMethod: e.LOGIN_METHOD,
    matchesMode: e.UPSTREAM_MATCHES,
    pageStartMode: e.UPSTREAM_PAGE_START,
    authErrorPattern: e.UPSTREAM_AUTH_ERROR_PATTERN,
    forbiddenErrorPattern: e.UPSTREAM_FORBIDDEN_ERROR_PATTERN,
    callerErrorPattern: e.UPSTREAM_CALLER_ERROR_PATTERN,
    upstreamRequestLimits: {
      maxIdLength: e.UPSTREAM_MAX_ID_LENGTH,
      maxUrlBytes: e.UPSTREAM_MAX_URL_BYTES,
      maxDataDepth: e.UPSTREAM_MAX_DATA_DEPTH,
      maxDataBytes: e.UPSTREAM_MAX_DATA_BYTES,
    },
    maxPatternLength: e.MAX_PATTERN_LENGTH,
    readinessRequiresUpstream: e.READINESS_REQUIRES_UPSTREAM,
    maxPageSize: e.MAX_PAGE_SIZE,
    defaultPageSize: e.DEFAULT_PAGE_SIZE,
    introspection: e.INTROSPECTION ?? !production,
    landingPage: e.LANDING_PAGE ?? !production,
    upstreamConnectTimeoutMillis: e.UPSTREAM_CONNECT_TIMEOUT_MS,
    upstreamHeadersTimeoutMillis: e.UPSTREAM_HEADERS_TIMEOUT_MS,
    upstreamBodyTimeoutMillis: e.UPSTREAM_BODY_TIMEOUT_MS,
    upstreamCallTimeoutMillis: e.UPSTREAM_CALL_TIMEOUT_MS,
    upstreamConnections: e.UPSTREAM_CONNECTIONS,
    requestTimeoutMillis: e.REQUEST_TIMEOUT_MS,
    corsOrigins: e.CORS_ORIGINS,
    queryLimits: {
      maxDepth: e.MAX_DEPTH,
      maxAliases: e.MAX_ALIASES,
      maxDirectives: e.MAX_DIRECTIVES,
      maxTokens: e.MAX_TOKENS,
      maxCost: e.MAX_COST,
    },
    maxUpstreamCallsPerRequest: e.MAX_UPSTREAM_CALLS_PER_REQUEST,
    maxBodyBytes: e.MAX_BODY_BYTES,
    http: {
      requestTimeoutMillis: e.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMillis: e.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMillis: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      connectionTimeoutMillis: e.HTTP_CONNECTION_TIMEOUT_MS,
    },
    trustedProxies: e.TRUSTED_PROXIES,
    redisUrl: e.REDIS_URL,
    login: {
      maxConsecutiveFailures: e.LOGIN_MAX_CONSECUTIVE_FAILURES,
      blockSeconds: e.LOGIN_BLOCK_SECONDS,
      maxFailuresPerUser: e.LOGIN_MAX_FAILURES_PER_USER,
      maxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
      minFailureMillis: e.LOGIN_FAILURE_MIN_MS,
      deviceTtlSeconds: e.LOGIN_DEVICE_TTL_SECONDS,
    },
    resilience: {
      readRetries: e.UPSTREAM_READ_RETRIES,
      retryBudgetPercent: e.UPSTREAM_RETRY_BUDGET_PERCENT,
      breakerFailurePercent: e.UPSTREAM_BREAKER_FAILURE_PERCENT,
      breakerWindowMillis: e.UPSTREAM_BREAKER_WINDOW_MS,
      breakerMinimumCalls: e.UPSTREAM_BREAKER_MIN_CALLS,
      breakerMinimumSources: e.UPSTREAM_BREAKER_MIN_SOURCES,
      breakerHalfOpenAfterMillis: e.UPSTREAM_BREAKER_HALF_OPEN_MS,
      maxConcurrentCalls: e.UPSTREAM_MAX_CONCURRENT,
      maxQueuedCalls: e.UPSTREAM_MAX_QUEUED,
      // A quarter of the bulkhead by default, so four looping sessions still leave room for everyone else.
      maxConcurrentCallsPerSession:
        e.UPSTREAM_MAX_CONCURRENT_PER_SESSION ?? Math.max(1, Math.floor(e.UPSTREAM_MAX_CONCURRENT / 4)),
      maxQueuedCallsPerSession: e.UPSTREAM_MAX_QUEUED_PER_SESSION,
    },
    trustedDocuments: { files: trustedFiles, only: e.TRUSTED_DOCUMENTS_ONLY },
    upstreamPropagateTrace: e.UPSTREAM_PROPAGATE_TRACE,
    federation: e.FEDERATION,
    shutdown: { delayMillis: e.SHUTDOWN_DELAY_MS, graceMillis: e.SHUTDOWN_GRACE_MS },
  };
}
