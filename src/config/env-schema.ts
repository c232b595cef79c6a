/**
 * The settings as environment variables: one zod schema with each variable's parser and default. The
 * cross-setting rules (all four upstream addresses or none, timeouts that must nest) are in `load-config.ts`.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { SETTING_DEFAULTS } from './defaults.ts';
import { NODE_ENVS } from './settings-problems.ts';

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

/** A comma-separated list of W3C baggage keys (RFC 7230 tokens), e.g. `tenant,synthetic`. */
const baggageKeys = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== ''),
  )
  .pipe(z.array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/, 'holds a malformed baggage key')));

/** The environment as the gateway reads it: every setting, parsed, with its default. */
export const envSchema = z.object({
  // Exactly one of three: `prod` or `Production` would otherwise start a development gateway (demo emulator).
  NODE_ENV: z
    .enum(NODE_ENVS, { error: `must be one of ${NODE_ENVS.join(', ')} (exactly; unset means development)` })
    .optional(),
  HOST: z.string().min(1).default(SETTING_DEFAULTS.HOST),
  PORT: int(0, 65_535).default(SETTING_DEFAULTS.PORT),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default(SETTING_DEFAULTS.LOG_LEVEL),
  LOG_LEVEL_FORMAT: z.enum(['number', 'label']).default(SETTING_DEFAULTS.LOG_LEVEL_FORMAT),
  // No fixed default: `errors` in production, `all` otherwise (load-config.ts).
  LOG_REQUESTS: z.enum(['all', 'errors']).optional(),
  API_URL: url.optional(),
  BASE_URL: url.optional(),
  STUDIO_URL: url.optional(),
  SERVER_URL: url.optional(),
  UPSTREAM: z.enum(['emulator']).optional(),
  OBJECT_TYPES_DIR: z.string().min(1).optional(),
  EMULATOR_PORT: int(0, 65_535).default(SETTING_DEFAULTS.EMULATOR_PORT),
  // No default: unset keeps the embedded emulator's data in memory.
  EMULATOR_DATA_FILE: z.string().min(1).optional(),
  APPLICATION_CODE: z.string().min(1).optional(),
  ORGANIZATION_CODE: z.string().min(1).optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_SECRET_PREVIOUS: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_TTL_SECONDS: int(60, 30 * 24 * 3600).default(SETTING_DEFAULTS.SESSION_TTL_SECONDS),
  SESSION_REVOCATIONS_PER_USER: int(1, 1_000_000).default(SETTING_DEFAULTS.SESSION_REVOCATIONS_PER_USER),
  SESSION_REVOCATIONS_MAX: int(1_000, 10_000_000).default(SETTING_DEFAULTS.SESSION_REVOCATIONS_MAX),
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
  LOGIN_METHOD: z.enum(['JSON', 'FORM']).default(SETTING_DEFAULTS.LOGIN_METHOD),
  UPSTREAM_MATCHES: z.enum(['regex', 'find', 'exact']).default(SETTING_DEFAULTS.UPSTREAM_MATCHES),
  UPSTREAM_PAGE_START: z.enum(['page0', 'page1', 'offset']).default(SETTING_DEFAULTS.UPSTREAM_PAGE_START),
  UPSTREAM_AUTH_ERROR_PATTERN: regex.default(SETTING_DEFAULTS.UPSTREAM_AUTH_ERROR_PATTERN),
  UPSTREAM_FORBIDDEN_ERROR_PATTERN: regex.default(SETTING_DEFAULTS.UPSTREAM_FORBIDDEN_ERROR_PATTERN),
  UPSTREAM_CALLER_ERROR_PATTERN: regex.default(SETTING_DEFAULTS.UPSTREAM_CALLER_ERROR_PATTERN),
  UPSTREAM_MAX_ID_LENGTH: int(1, 100_000).default(SETTING_DEFAULTS.UPSTREAM_MAX_ID_LENGTH),
  UPSTREAM_MAX_URL_BYTES: int(1024, 1_048_576).default(SETTING_DEFAULTS.UPSTREAM_MAX_URL_BYTES),
  UPSTREAM_MAX_DATA_DEPTH: int(1, 1000).default(SETTING_DEFAULTS.UPSTREAM_MAX_DATA_DEPTH),
  UPSTREAM_MAX_DATA_BYTES: int(1024, 100 * 1024 * 1024).default(SETTING_DEFAULTS.UPSTREAM_MAX_DATA_BYTES),
  MAX_PATTERN_LENGTH: int(1, 100_000).default(SETTING_DEFAULTS.MAX_PATTERN_LENGTH),
  READINESS_REQUIRES_UPSTREAM: bool.default(SETTING_DEFAULTS.READINESS_REQUIRES_UPSTREAM),
  MAX_PAGE_SIZE: int(1, 1000).default(SETTING_DEFAULTS.MAX_PAGE_SIZE),
  DEFAULT_PAGE_SIZE: int(1, 1000).default(SETTING_DEFAULTS.DEFAULT_PAGE_SIZE),
  INTROSPECTION: bool.optional(),
  LANDING_PAGE: bool.optional(),
  UPSTREAM_CONNECT_TIMEOUT_MS: int(1, 600_000).default(SETTING_DEFAULTS.UPSTREAM_CONNECT_TIMEOUT_MS),
  UPSTREAM_HEADERS_TIMEOUT_MS: int(1, 600_000).default(SETTING_DEFAULTS.UPSTREAM_HEADERS_TIMEOUT_MS),
  UPSTREAM_BODY_TIMEOUT_MS: int(1, 600_000).default(SETTING_DEFAULTS.UPSTREAM_BODY_TIMEOUT_MS),
  UPSTREAM_CALL_TIMEOUT_MS: int(1, 600_000).default(SETTING_DEFAULTS.UPSTREAM_CALL_TIMEOUT_MS),
  UPSTREAM_CONNECTIONS: int(1, 1024).default(SETTING_DEFAULTS.UPSTREAM_CONNECTIONS),
  REQUEST_TIMEOUT_MS: int(1, 600_000).default(SETTING_DEFAULTS.REQUEST_TIMEOUT_MS),
  CORS_ORIGINS: origins.default([]),
  MAX_DEPTH: int(1, 1000).default(SETTING_DEFAULTS.MAX_DEPTH),
  MAX_ALIASES: int(0, 10_000).default(SETTING_DEFAULTS.MAX_ALIASES),
  MAX_DIRECTIVES: int(0, 10_000).default(SETTING_DEFAULTS.MAX_DIRECTIVES),
  MAX_TOKENS: int(10, 1_000_000).default(SETTING_DEFAULTS.MAX_TOKENS),
  MAX_COST: int(1, 10_000_000).default(SETTING_DEFAULTS.MAX_COST),
  MAX_UPSTREAM_CALLS_PER_REQUEST: int(1, 100_000).default(SETTING_DEFAULTS.MAX_UPSTREAM_CALLS_PER_REQUEST),
  MAX_BODY_BYTES: int(1024, 100 * 1024 * 1024).default(SETTING_DEFAULTS.MAX_BODY_BYTES),
  MAX_DOCUMENT_BYTES: int(256, 100 * 1024 * 1024).default(SETTING_DEFAULTS.MAX_DOCUMENT_BYTES),
  MAX_COMMENT_BYTES: int(0, 100 * 1024 * 1024).default(SETTING_DEFAULTS.MAX_COMMENT_BYTES),
  DOCUMENT_CACHE_BYTES: int(0, 1024 * 1024 * 1024).default(SETTING_DEFAULTS.DOCUMENT_CACHE_BYTES),
  MAX_CONNECTIONS: int(1, 1_000_000).default(SETTING_DEFAULTS.MAX_CONNECTIONS),
  MAX_CONNECTIONS_PER_ADDRESS: int(1, 1_000_000).default(SETTING_DEFAULTS.MAX_CONNECTIONS_PER_ADDRESS),
  MAX_INFLIGHT_BODY_BYTES: int(1024, 16 * 1024 * 1024 * 1024).default(
    SETTING_DEFAULTS.MAX_INFLIGHT_BODY_BYTES,
  ),
  MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS: int(1024, 16 * 1024 * 1024 * 1024).default(
    SETTING_DEFAULTS.MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS,
  ),
  HTTP_REQUEST_TIMEOUT_MS: int(1, 600_000).default(SETTING_DEFAULTS.HTTP_REQUEST_TIMEOUT_MS),
  HTTP_HEADERS_TIMEOUT_MS: int(1, 600_000).default(SETTING_DEFAULTS.HTTP_HEADERS_TIMEOUT_MS),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(1, 600_000).default(SETTING_DEFAULTS.HTTP_KEEP_ALIVE_TIMEOUT_MS),
  HTTP_CONNECTION_TIMEOUT_MS: int(1, 3_600_000).default(SETTING_DEFAULTS.HTTP_CONNECTION_TIMEOUT_MS),
  TRUSTED_PROXIES: proxies.default([]),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  LOGIN_MAX_CONSECUTIVE_FAILURES: int(1, 1_000_000).default(SETTING_DEFAULTS.LOGIN_MAX_CONSECUTIVE_FAILURES),
  LOGIN_BLOCK_SECONDS: int(1, 30 * 24 * 3600).default(SETTING_DEFAULTS.LOGIN_BLOCK_SECONDS),
  LOGIN_MAX_FAILURES_PER_USER: int(1, 1_000_000).default(SETTING_DEFAULTS.LOGIN_MAX_FAILURES_PER_USER),
  LOGIN_MAX_FAILURES_PER_IP: int(1, 1_000_000).default(SETTING_DEFAULTS.LOGIN_MAX_FAILURES_PER_IP),
  LOGIN_MAX_TRACKED_COUNTERS: int(100, 10_000_000).default(SETTING_DEFAULTS.LOGIN_MAX_TRACKED_COUNTERS),
  LOGIN_FAILURE_MIN_MS: int(0, 10_000).default(SETTING_DEFAULTS.LOGIN_FAILURE_MIN_MS),
  LOGIN_DEVICE_TTL_SECONDS: int(60, 400 * 24 * 3600).default(SETTING_DEFAULTS.LOGIN_DEVICE_TTL_SECONDS),
  UPSTREAM_READ_RETRIES: int(0, 10).default(SETTING_DEFAULTS.UPSTREAM_READ_RETRIES),
  UPSTREAM_RETRY_BUDGET_PERCENT: int(0, 100).default(SETTING_DEFAULTS.UPSTREAM_RETRY_BUDGET_PERCENT),
  UPSTREAM_BREAKER_FAILURE_PERCENT: int(1, 99).default(SETTING_DEFAULTS.UPSTREAM_BREAKER_FAILURE_PERCENT),
  UPSTREAM_BREAKER_WINDOW_MS: int(1000, 600_000).default(SETTING_DEFAULTS.UPSTREAM_BREAKER_WINDOW_MS),
  UPSTREAM_BREAKER_MIN_CALLS: int(1, 1_000_000).default(SETTING_DEFAULTS.UPSTREAM_BREAKER_MIN_CALLS),
  UPSTREAM_BREAKER_MIN_SOURCES: int(1, 1000).default(SETTING_DEFAULTS.UPSTREAM_BREAKER_MIN_SOURCES),
  UPSTREAM_BREAKER_HALF_OPEN_MS: int(1, 600_000).default(SETTING_DEFAULTS.UPSTREAM_BREAKER_HALF_OPEN_MS),
  UPSTREAM_MAX_CONCURRENT: int(1, 100_000).default(SETTING_DEFAULTS.UPSTREAM_MAX_CONCURRENT),
  UPSTREAM_MAX_QUEUED: int(0, 1_000_000).default(SETTING_DEFAULTS.UPSTREAM_MAX_QUEUED),
  UPSTREAM_MAX_CONCURRENT_PER_SESSION: int(1, 100_000).optional(),
  UPSTREAM_MAX_QUEUED_PER_SESSION: int(0, 1_000_000).default(
    SETTING_DEFAULTS.UPSTREAM_MAX_QUEUED_PER_SESSION,
  ),
  UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES: int(1024, 4 * 1024 ** 3).default(
    SETTING_DEFAULTS.UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES,
  ),
  UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER: int(1024, 4 * 1024 ** 3).default(
    SETTING_DEFAULTS.UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER,
  ),
  TRUSTED_DOCUMENTS: z.string().optional(),
  TRUSTED_DOCUMENTS_ONLY: bool.default(SETTING_DEFAULTS.TRUSTED_DOCUMENTS_ONLY),
  UPSTREAM_PROPAGATE_TRACE: bool.default(SETTING_DEFAULTS.UPSTREAM_PROPAGATE_TRACE),
  // Unset: no baggage entry of a caller's ever reaches the upstream.
  UPSTREAM_BAGGAGE_KEYS: baggageKeys.default([]),
  FEDERATION: bool.default(SETTING_DEFAULTS.FEDERATION),
  FEDERATION_NAME_PREFIX: z
    .string()
    .regex(
      /^[A-Z][A-Za-z0-9]{0,31}$/,
      'must be a capitalised GraphQL name of at most 32 letters and digits, e.g. Objects',
    )
    .optional(),
  RELAY_NODE: bool.default(SETTING_DEFAULTS.RELAY_NODE),
  SHUTDOWN_DELAY_MS: int(0, 600_000).default(SETTING_DEFAULTS.SHUTDOWN_DELAY_MS),
  SHUTDOWN_GRACE_MS: int(0, 600_000).default(SETTING_DEFAULTS.SHUTDOWN_GRACE_MS),
});
