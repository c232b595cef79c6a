/**
 * Every setting of the gateway, read from the environment and validated once at start. A bad setting stops
 * the start with one clear line that names it (`loadConfig` throws a `ConfigError`).
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import type { QueryLimitsOptions } from './limits/armor.ts';
import type { MatchesMode, PageStartMode } from './upstream/types.ts';

/** Where the upstream is: four base addresses, or the embedded emulator. */
export type UpstreamTarget =
  | { kind: 'remote'; apiUrl: string; baseUrl: string; studioUrl: string; serverUrl: string }
  | {
      kind: 'embedded';
      /** `EMULATOR_PORT`; `0` (the default) lets the system choose a free port. */
      emulatorPort: number;
      /** `UPSTREAM=emulator` asked for it explicitly (required in production, where it is loudly logged). */
      explicit: boolean;
    };

/** The validated settings. Durations carry their unit in the name. */
export interface GatewayConfig {
  production: boolean;
  host: string;
  port: number;
  logLevel: string;
  /** `LOG_REQUESTS`: log every request (`all`), or only failed and slow ones (`errors`, production's default). */
  logRequests: 'all' | 'errors';
  upstream: UpstreamTarget;
  /** `OBJECT_TYPES_DIR`: the folder of typed object types. `undefined` = the repository's `schema/objects/`. */
  objectTypesDir: string | undefined;
  applicationCode: string;
  organizationCode: string | undefined;
  /** Raw secret; only `session.ts` derives the key from it. Never logged. `undefined` = random per start. */
  sessionSecret: string | undefined;
  /** `SESSION_SECRET_PREVIOUS`: the secret being rotated out; its tokens still open, none is sealed. Never logged. */
  sessionSecretPrevious: string | undefined;
  sessionTtlSeconds: number;
  /** `ALLOWED_ORGANIZATION_CODES`: the organizations a login may choose; empty = any well-formed code. */
  allowedOrganizationCodes: string[];
  loginMethod: 'JSON' | 'FORM';
  matchesMode: MatchesMode;
  pageStartMode: PageStartMode;
  authErrorPattern: RegExp;
  /** `UPSTREAM_FORBIDDEN_ERROR_PATTERN`: upstream messages meaning "not open to this user" (`FORBIDDEN`). */
  forbiddenErrorPattern: RegExp | undefined;
  /** `UPSTREAM_CALLER_ERROR_PATTERN`: upstream messages meaning "the caller's input is wrong" (`BAD_USER_INPUT`). */
  callerErrorPattern: RegExp | undefined;
  /** What the upstream cannot take, refused before sending; see `src/upstream/request-checks.ts`. */
  requestLimits: {
    /** `UPSTREAM_MAX_ID_LENGTH`. Default 256. */
    maxIdLength: number;
    /** `UPSTREAM_MAX_URL_BYTES`: request line and headers. Default 8192 (Tomcat's `maxHttpHeaderSize`). */
    maxUrlBytes: number;
    /** `UPSTREAM_MAX_DATA_DEPTH`. Default 32. */
    maxDataDepth: number;
    /** `UPSTREAM_MAX_DATA_BYTES`. Default 1_048_576. */
    maxDataBytes: number;
  };
  /** `MAX_PATTERN_LENGTH`: longest caller-written `matches` pattern. Default 512. */
  maxPatternLength: number;
  /** `READINESS_REQUIRES_UPSTREAM`: `/readyz` fails while the upstream is down. Default false. */
  readinessRequiresUpstream: boolean;
  maxPageSize: number;
  defaultPageSize: number;
  introspection: boolean;
  landingPage: boolean;
  upstreamConnectTimeoutMillis: number;
  upstreamHeadersTimeoutMillis: number;
  upstreamBodyTimeoutMillis: number;
  upstreamCallTimeoutMillis: number;
  upstreamConnections: number;
  requestTimeoutMillis: number;
  corsOrigins: string[];
  /** `MAX_DEPTH` 6, `MAX_ALIASES` 15, `MAX_DIRECTIVES` 50, `MAX_TOKENS` 1000, `MAX_COST` 5000. */
  queryLimits: QueryLimitsOptions;
  /**
   * `MAX_UPSTREAM_CALLS_PER_REQUEST`: upstream calls one GraphQL request may make; estimated before
   * execution and enforced during it (`MAX_UPSTREAM_CALLS_EXCEEDED`). Default 50.
   */
  maxUpstreamCallsPerRequest: number;
  /** `MAX_BODY_BYTES`: largest request body; more is `BODY_TOO_LARGE`. Default 100_000. */
  maxBodyBytes: number;
  /** The HTTP listener's timeouts, which reap slow or silent clients; see `src/http/server-options.ts`. */
  http: {
    /** `HTTP_REQUEST_TIMEOUT_MS`: to receive a whole request, headers and body (408 after). Default 10_000. */
    requestTimeoutMillis: number;
    /** `HTTP_HEADERS_TIMEOUT_MS`: to receive a request's headers; at most the above. Default 5_000. */
    headersTimeoutMillis: number;
    /** `HTTP_KEEP_ALIVE_TIMEOUT_MS`: an idle keep-alive connection is closed after this. Default 72_000. */
    keepAliveTimeoutMillis: number;
    /** `HTTP_CONNECTION_TIMEOUT_MS`: a connection silent both ways (a client not reading) is closed. Default 30_000. */
    connectionTimeoutMillis: number;
  };
  /** `TRUSTED_PROXIES`: peers (addresses, CIDRs, `loopback`) whose `x-forwarded-for` is believed. Default none. */
  trustedProxies: string[];
  /** `REDIS_URL`: where login counters are shared by replicas. Default none: in memory. Never logged. */
  redisUrl: string | undefined;
  /** Login protection; see `src/auth/login-limiter.ts`. */
  login: {
    /** `LOGIN_MAX_CONSECUTIVE_FAILURES`: per username + client IP. Default 10. */
    maxConsecutiveFailures: number;
    /** `LOGIN_BLOCK_SECONDS`. Default 3600. */
    blockSeconds: number;
    /** `LOGIN_MAX_FAILURES_PER_USER`: failures of unknown clients per account per block window. Default 100. */
    maxFailuresPerUser: number;
    /** `LOGIN_MAX_FAILURES_PER_IP`: distinct accounts failing from one client IP per day. Default 100. */
    maxFailuresPerIp: number;
    /** `LOGIN_DEVICE_TTL_SECONDS`: lifetime of device tokens and of username/mobile links. Default 90 days. */
    deviceTtlSeconds: number;
    /** `LOGIN_FAILURE_MIN_MS`: the least time a failed login takes to answer. Default 400. */
    minFailureMillis: number;
  };
  /** Upstream resilience; see `src/upstream/resilience.ts`. */
  resilience: {
    /** `UPSTREAM_READ_RETRIES`. Default 2. */
    readRetries: number;
    /** `UPSTREAM_RETRY_BUDGET_PERCENT`: retries as a share of recent successes. Default 20. */
    retryBudgetPercent: number;
    /** `UPSTREAM_BREAKER_FAILURE_PERCENT`: share of sick answers in the window that opens a breaker. Default 50. */
    breakerFailurePercent: number;
    /** `UPSTREAM_BREAKER_WINDOW_MS`: the window the breaker samples. Default 10_000. */
    breakerWindowMillis: number;
    /** `UPSTREAM_BREAKER_MIN_CALLS`: calls in the window before the breaker may open. Default 20. */
    breakerMinimumCalls: number;
    /** `UPSTREAM_BREAKER_MIN_SOURCES`: users whose calls failed in the window before it may open. Default 2. */
    breakerMinimumSources: number;
    /** `UPSTREAM_BREAKER_HALF_OPEN_MS`. Default 5000. */
    breakerHalfOpenAfterMillis: number;
    /** `UPSTREAM_MAX_CONCURRENT`: upstream calls in flight. Default 64. */
    maxConcurrentCalls: number;
    /** `UPSTREAM_MAX_QUEUED`: calls waiting for a slot before `overloaded`. Default 512. */
    maxQueuedCalls: number;
    /** `UPSTREAM_MAX_CONCURRENT_PER_SESSION`: one session's share of the bulkhead. Default 16. */
    maxConcurrentCallsPerSession: number;
    /** `UPSTREAM_MAX_QUEUED_PER_SESSION`: one session's waiting calls before `TOO_MANY_REQUESTS`. Default 64. */
    maxQueuedCallsPerSession: number;
  };
  /** Trusted (persisted) documents; see `src/trusted/`. */
  trustedDocuments: {
    /** `TRUSTED_DOCUMENTS`: manifest files (hash → document), comma-separated. Default none. */
    files: string[];
    /** `TRUSTED_DOCUMENTS_ONLY`: refuse every document no manifest holds. Default false. */
    only: boolean;
  };
  /** `FEDERATION`: serve the schema as an Apollo Federation 2 subgraph (`src/federation/`). Default false. */
  federation: boolean;
  /** `UPSTREAM_PROPAGATE_TRACE`: send W3C trace context upstream when tracing is on. Default false. */
  upstreamPropagateTrace: boolean;
  /** SIGTERM handling; see `src/app/shutdown.ts`. */
  shutdown: {
    /** `SHUTDOWN_DELAY_MS`: readiness says "draining" this long before the listener closes. Default 0. */
    delayMillis: number;
    /** `SHUTDOWN_GRACE_MS`: how long in-flight requests may take to finish. Default 10_000. */
    graceMillis: number;
  };
}

/** A setting that failed validation; `message` is the one line to print. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const regex = z.string().transform((source, ctx) => {
  try {
    return new RegExp(source, 'i');
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a valid regular expression' });
    return z.NEVER;
  }
});

/**
 * A comma-separated list of exact origins (`scheme://host[:port]`). A path, a trailing slash or `*` would
 * silently never match a browser's `Origin` header (or match every site), so they stop the start instead.
 */
const origins = z.string().transform((list, ctx) => {
  const entries = list
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const entry of entries) {
    if (!URL.canParse(entry) || new URL(entry).origin !== entry || !/^https?:/.test(entry)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an origin; list origins like http://localhost:5173, comma-separated`,
      });
      return z.NEVER;
    }
  }
  return entries;
});

/**
 * A comma-separated list of trusted proxies: IP addresses, CIDR ranges, or the names `loopback`,
 * `linklocal`, `uniquelocal` (as Fastify's `trustProxy` takes them).
 */
const proxies = z.string().transform((list, ctx) => {
  const entries = list
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const validBits =
      bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(entry);
    if (!named && (family === 0 || !validBits || extra !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an IP address or CIDR range (e.g. 127.0.0.1, 10.0.0.0/8, loopback)`,
      });
      return z.NEVER;
    }
  }
  return entries;
});

/**
 * A well-formed organization code: what the upstream's codes look like (`acme`, `globex`, `org-2`), and
 * nothing that could widen a read's scope (empty, blank, wildcard or separator characters).
 */
export const ORGANIZATION_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const schema = z.object({
  NODE_ENV: z.string().optional(),
  HOST: z.string().min(1).optional(),
  PORT: int(0, 65_535).default(4000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_REQUESTS: z.enum(['all', 'errors']).optional(),
  API_URL: url.optional(),
  BASE_URL: url.optional(),
  STUDIO_URL: url.optional(),
  SERVER_URL: url.optional(),
  UPSTREAM: z.enum(['emulator']).optional(),
  OBJECT_TYPES_DIR: z.string().min(1).optional(),
  EMULATOR_PORT: int(0, 65_535).default(0),
  APPLICATION_CODE: z.string().min(1).optional(),
  ORGANIZATION_CODE: z.string().min(1).optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_SECRET_PREVIOUS: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_TTL_SECONDS: int(60, 30 * 24 * 3600).default(28_800),
  ALLOWED_ORGANIZATION_CODES: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((code) => code.trim())
        .filter((code) => code !== ''),
    )
    .pipe(z.array(z.string().regex(ORGANIZATION_CODE_PATTERN, 'holds a malformed organization code')))
    .default([]),
  LOGIN_METHOD: z.enum(['JSON', 'FORM']).default('JSON'),
  UPSTREAM_MATCHES: z.enum(['regex', 'exact']).default('regex'),
  UPSTREAM_PAGE_START: z.enum(['page0', 'page1', 'offset']).default('page0'),
  UPSTREAM_AUTH_ERROR_PATTERN: regex.default(/token|credential|unauthori[sz]ed|session/i),
  UPSTREAM_FORBIDDEN_ERROR_PATTERN: regex.optional(),
  UPSTREAM_CALLER_ERROR_PATTERN: regex.optional(),
  UPSTREAM_MAX_ID_LENGTH: int(1, 100_000).default(256),
  UPSTREAM_MAX_URL_BYTES: int(1024, 1_048_576).default(8_192),
  UPSTREAM_MAX_DATA_DEPTH: int(1, 1000).default(32),
  UPSTREAM_MAX_DATA_BYTES: int(1024, 100 * 1024 * 1024).default(1_048_576),
  MAX_PATTERN_LENGTH: int(1, 100_000).default(512),
  READINESS_REQUIRES_UPSTREAM: bool.default(false),
  MAX_PAGE_SIZE: int(1, 1000).default(100),
  DEFAULT_PAGE_SIZE: int(1, 1000).default(20),
  INTROSPECTION: bool.optional(),
  LANDING_PAGE: bool.optional(),
  UPSTREAM_CONNECT_TIMEOUT_MS: int(1, 600_000).default(2_000),
  UPSTREAM_HEADERS_TIMEOUT_MS: int(1, 600_000).default(5_000),
  UPSTREAM_BODY_TIMEOUT_MS: int(1, 600_000).default(5_000),
  UPSTREAM_CALL_TIMEOUT_MS: int(1, 600_000).default(10_000),
  UPSTREAM_CONNECTIONS: int(1, 1024).default(32),
  REQUEST_TIMEOUT_MS: int(1, 600_000).default(15_000),
  CORS_ORIGINS: origins.default([]),
  MAX_DEPTH: int(1, 1000).default(6),
  MAX_ALIASES: int(0, 10_000).default(15),
  MAX_DIRECTIVES: int(0, 10_000).default(50),
  MAX_TOKENS: int(10, 1_000_000).default(1000),
  MAX_COST: int(1, 10_000_000).default(5000),
  MAX_UPSTREAM_CALLS_PER_REQUEST: int(1, 100_000).default(50),
  MAX_BODY_BYTES: int(1024, 100 * 1024 * 1024).default(100_000),
  HTTP_REQUEST_TIMEOUT_MS: int(1, 600_000).default(10_000),
  HTTP_HEADERS_TIMEOUT_MS: int(1, 600_000).default(5_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(1, 600_000).default(72_000),
  HTTP_CONNECTION_TIMEOUT_MS: int(1, 3_600_000).default(30_000),
  TRUSTED_PROXIES: proxies.default([]),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  LOGIN_MAX_CONSECUTIVE_FAILURES: int(1, 1_000_000).default(10),
  LOGIN_BLOCK_SECONDS: int(1, 30 * 24 * 3600).default(3600),
  LOGIN_MAX_FAILURES_PER_USER: int(1, 1_000_000).default(100),
  LOGIN_MAX_FAILURES_PER_IP: int(1, 1_000_000).default(100),
  LOGIN_FAILURE_MIN_MS: int(0, 10_000).default(400),
  LOGIN_DEVICE_TTL_SECONDS: int(60, 400 * 24 * 3600).default(90 * 24 * 3600),
  UPSTREAM_READ_RETRIES: int(0, 10).default(2),
  UPSTREAM_RETRY_BUDGET_PERCENT: int(0, 100).default(20),
  UPSTREAM_BREAKER_FAILURE_PERCENT: int(1, 99).default(50),
  UPSTREAM_BREAKER_WINDOW_MS: int(1000, 600_000).default(10_000),
  UPSTREAM_BREAKER_MIN_CALLS: int(1, 1_000_000).default(20),
  UPSTREAM_BREAKER_MIN_SOURCES: int(1, 1000).default(2),
  UPSTREAM_BREAKER_HALF_OPEN_MS: int(1, 600_000).default(5_000),
  UPSTREAM_MAX_CONCURRENT: int(1, 100_000).default(64),
  UPSTREAM_MAX_QUEUED: int(0, 1_000_000).default(512),
  UPSTREAM_MAX_CONCURRENT_PER_SESSION: int(1, 100_000).optional(),
  UPSTREAM_MAX_QUEUED_PER_SESSION: int(0, 1_000_000).default(64),
  TRUSTED_DOCUMENTS: z.string().optional(),
  TRUSTED_DOCUMENTS_ONLY: bool.default(false),
  UPSTREAM_PROPAGATE_TRACE: bool.default(false),
  FEDERATION: bool.default(false),
  SHUTDOWN_DELAY_MS: int(0, 600_000).default(0),
  SHUTDOWN_GRACE_MS: int(0, 600_000).default(10_000),
});

const UPSTREAM_KEYS = ['API_URL', 'BASE_URL', 'STUDIO_URL', 'SERVER_URL'] as const;

/**
 * Reads and validates the settings.
 * @throws ConfigError naming the first bad setting.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(blankless);
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
          apiUrl: e.API_URL,
          baseUrl: e.BASE_URL,
          studioUrl: e.STUDIO_URL,
          serverUrl: e.SERVER_URL,
        }
      : { kind: 'embedded', emulatorPort: e.EMULATOR_PORT, explicit: e.UPSTREAM === 'emulator' };
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
    host: e.HOST ?? '127.0.0.1',
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS ?? (production ? 'errors' : 'all'),
    upstream,
    applicationCode: e.APPLICATION_CODE ?? 'demo',
    organizationCode: e.ORGANIZATION_CODE ?? (upstream.kind === 'embedded' ? 'acme' : undefined),
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
    requestLimits: {
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
