/**
 * Every setting of the gateway, read from the environment and validated once at start. Bad settings stop
 * the start with one clear line each, all of them at once (`loadConfig` throws a `ConfigError`).
 */
import { ConfigError } from './config-error.ts';
import { SETTING_DEFAULTS, UPSTREAM_MAX_RESPONSE_BYTES, UPSTREAM_SMALL_ANSWER_BYTES } from './defaults.ts';
import { envSchema } from './env-schema.ts';
import type { GatewayConfig, UpstreamTarget } from './gateway-config.ts';
import { presenceProblems, settingProblem } from './settings-problems.ts';

/**
 * Reads and validates the settings.
 * @throws ConfigError naming every bad setting, one line each.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const blankless = Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
  const parsed = envSchema.safeParse(blankless);
  // Every problem at once: the schema's (the first of each setting), then the missing ones.
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const issue of parsed.error?.issues ?? []) {
    const key = String(issue.path[0] ?? 'settings');
    if (!seen.has(key)) problems.push(settingProblem(key, issue.message));
    seen.add(key);
  }
  problems.push(...presenceProblems(blankless));
  if (!parsed.success) throw new ConfigError(problems.join('\n'));
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
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
  if (e.DEFAULT_PAGE_SIZE > e.MAX_PAGE_SIZE) {
    problems.push(settingProblem('DEFAULT_PAGE_SIZE', 'must not exceed MAX_PAGE_SIZE'));
  }
  if (e.REQUEST_TIMEOUT_MS <= e.UPSTREAM_CALL_TIMEOUT_MS) {
    // Otherwise a slow upstream answer would be cut by the request's deadline instead of its own.
    problems.push(settingProblem('REQUEST_TIMEOUT_MS', 'must exceed UPSTREAM_CALL_TIMEOUT_MS'));
  }
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    // Node refuses to start a server whose headers may take longer than the whole request.
    problems.push(settingProblem('HTTP_HEADERS_TIMEOUT_MS', 'must not exceed HTTP_REQUEST_TIMEOUT_MS'));
  }
  if (e.HTTP_CONNECTION_TIMEOUT_MS <= e.REQUEST_TIMEOUT_MS) {
    // A request's execution sends nothing on its socket: a shorter idle limit would cut slow answers.
    problems.push(settingProblem('HTTP_CONNECTION_TIMEOUT_MS', 'must exceed REQUEST_TIMEOUT_MS'));
  }
  if (e.MAX_CONNECTIONS_PER_ADDRESS > e.MAX_CONNECTIONS) {
    problems.push(settingProblem('MAX_CONNECTIONS_PER_ADDRESS', 'must not exceed MAX_CONNECTIONS'));
  }
  if (e.MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS > e.MAX_INFLIGHT_BODY_BYTES) {
    problems.push(
      settingProblem('MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS', 'must not exceed MAX_INFLIGHT_BODY_BYTES'),
    );
  }
  if (e.MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS < e.MAX_BODY_BYTES) {
    // Otherwise a body under MAX_BODY_BYTES could never be received.
    problems.push(settingProblem('MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS', 'must be at least MAX_BODY_BYTES'));
  }
  if (
    e.UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER <
    UPSTREAM_MAX_RESPONSE_BYTES + UPSTREAM_SMALL_ANSWER_BYTES
  ) {
    // An announced length is taken whole: a largest answer must fit beside another small one of that user.
    problems.push(
      settingProblem(
        'UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER',
        `must be at least ${UPSTREAM_MAX_RESPONSE_BYTES + UPSTREAM_SMALL_ANSWER_BYTES} (the largest answer, 8 MiB, and one small answer, 64 KiB)`,
      ),
    );
  }
  const trustedFiles = (e.TRUSTED_DOCUMENTS ?? '')
    .split(',')
    .map((file) => file.trim())
    .filter((file) => file !== '');
  if (e.TRUSTED_DOCUMENTS_ONLY && trustedFiles.length === 0) {
    // Otherwise every request would be refused: say so at start, not on the first request.
    problems.push(settingProblem('TRUSTED_DOCUMENTS_ONLY', 'needs TRUSTED_DOCUMENTS (the manifest files)'));
  }
  if (e.FEDERATION && e.TRUSTED_DOCUMENTS_ONLY) {
    // The router sends generated texts (`_entities`, `_service`, query plans) that no manifest can hold:
    // this subgraph would start and then refuse every router query. Refuse the start instead.
    problems.push(
      settingProblem(
        'TRUSTED_DOCUMENTS_ONLY',
        'cannot be combined with FEDERATION=true (the router sends query plans no manifest holds); enforce trusted documents at the router (Apollo Router persisted_queries safelist, Hive Gateway persistedDocuments) and unset TRUSTED_DOCUMENTS_ONLY here',
      ),
    );
  }
  if (e.FEDERATION_NAME_PREFIX !== undefined && !e.FEDERATION) {
    problems.push(settingProblem('FEDERATION_NAME_PREFIX', 'only with FEDERATION=true'));
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return {
    production,
    objectTypesDir: e.OBJECT_TYPES_DIR,
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS ?? (production ? 'errors' : 'all'),
    logLevelFormat: e.LOG_LEVEL_FORMAT,
    upstream,
    applicationCode: e.APPLICATION_CODE ?? SETTING_DEFAULTS.APPLICATION_CODE,
    organizationCode:
      e.ORGANIZATION_CODE ?? (upstream.kind === 'embedded' ? SETTING_DEFAULTS.ORGANIZATION_CODE : undefined),
    sessionSecret: e.SESSION_SECRET,
    sessionSecretPrevious: e.SESSION_SECRET_PREVIOUS,
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    sessionRevocationsPerUser: e.SESSION_REVOCATIONS_PER_USER,
    sessionRevocationsMax: e.SESSION_REVOCATIONS_MAX,
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
    documentLimits: {
      maxBytes: e.MAX_DOCUMENT_BYTES,
      maxCommentBytes: e.MAX_COMMENT_BYTES,
      cacheBytes: e.DOCUMENT_CACHE_BYTES,
    },
    connectionLimits: {
      maxConnections: e.MAX_CONNECTIONS,
      maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
      maxInflightBodyBytes: e.MAX_INFLIGHT_BODY_BYTES,
      maxInflightBodyBytesPerAddress: e.MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS,
    },
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
      maxTrackedCounters: e.LOGIN_MAX_TRACKED_COUNTERS,
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
      maxInflightAnswerBytes: e.UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES,
      maxInflightAnswerBytesPerUser: e.UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER,
    },
    trustedDocuments: { files: trustedFiles, only: e.TRUSTED_DOCUMENTS_ONLY },
    upstreamPropagateTrace: e.UPSTREAM_PROPAGATE_TRACE,
    upstreamBaggageKeys: e.UPSTREAM_BAGGAGE_KEYS,
    federation: e.FEDERATION,
    federationNamePrefix: e.FEDERATION_NAME_PREFIX,
    relayNode: e.RELAY_NODE,
    shutdown: { delayMillis: e.SHUTDOWN_DELAY_MS, graceMillis: e.SHUTDOWN_GRACE_MS },
  };
}
