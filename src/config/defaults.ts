/**
 * The default of every setting that has a fixed one, keyed by its environment variable. The zod schema
 * (`env-schema.ts`) reads it, and so do the modules that take the same value as an option (`src/upstream/`,
 * `src/auth/`), so a default is written once; a test checks the README's settings table against it.
 *
 * A leaf module: it imports nothing, so the upstream core can read it without depending on the settings.
 * Settings whose default depends on others (`INTROSPECTION`, `UPSTREAM_MAX_CONCURRENT_PER_SESSION`) or
 * that are simply unset (`REDIS_URL`) are not here.
 */
export const SETTING_DEFAULTS = {
  PORT: 4000,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  LOG_LEVEL_FORMAT: 'number',
  /** `0`: the system chooses a free port for the embedded emulator. */
  EMULATOR_PORT: 0,
  /** With the embedded emulator only: a real upstream requires `APPLICATION_CODE`. */
  APPLICATION_CODE: 'demo',
  /** With the embedded emulator only: a real upstream has no default organization. */
  ORGANIZATION_CODE: 'acme',
  SESSION_TTL_SECONDS: 28_800,
  SESSION_REVOCATIONS_PER_USER: 1_000,
  SESSION_REVOCATIONS_MAX: 100_000,
  LOGIN_METHOD: 'JSON',
  MAX_PAGE_SIZE: 100,
  DEFAULT_PAGE_SIZE: 20,
  UPSTREAM_MATCHES: 'regex',
  UPSTREAM_PAGE_START: 'page0',
  UPSTREAM_AUTH_ERROR_PATTERN: /token|credential|unauthori[sz]ed|session/i,
  /** The session's user may not reach what it asked for. */
  UPSTREAM_FORBIDDEN_ERROR_PATTERN: /not open to|forbidden|not allowed|permission|access denied/i,
  /**
   * The upstream refused the caller's input (a pattern it cannot compile, an operator or object name it does
   * not know), which no retry and no other caller can change.
   */
  UPSTREAM_CALLER_ERROR_PATTERN:
    /regular expression|regex|pattern|operator|unknown object|object ?name|invalid filter|filtercommand/i,
  UPSTREAM_MAX_ID_LENGTH: 256,
  /** Tomcat's `maxHttpHeaderSize`. */
  UPSTREAM_MAX_URL_BYTES: 8_192,
  UPSTREAM_MAX_DATA_DEPTH: 32,
  UPSTREAM_MAX_DATA_BYTES: 1_048_576,
  MAX_PATTERN_LENGTH: 512,
  READINESS_REQUIRES_UPSTREAM: false,
  UPSTREAM_CONNECT_TIMEOUT_MS: 2_000,
  UPSTREAM_HEADERS_TIMEOUT_MS: 5_000,
  UPSTREAM_BODY_TIMEOUT_MS: 5_000,
  UPSTREAM_CALL_TIMEOUT_MS: 10_000,
  UPSTREAM_CONNECTIONS: 32,
  REQUEST_TIMEOUT_MS: 15_000,
  MAX_DEPTH: 6,
  MAX_ALIASES: 15,
  MAX_DIRECTIVES: 50,
  MAX_TOKENS: 1000,
  MAX_COST: 5000,
  MAX_UPSTREAM_CALLS_PER_REQUEST: 50,
  MAX_BODY_BYTES: 100_000,
  /** 32 KiB: a thousand tokens (`MAX_TOKENS`) of a printed document take about 5 KiB (measured). */
  MAX_DOCUMENT_BYTES: 32_768,
  MAX_COMMENT_BYTES: 4_096,
  /** 16 MiB of the 256 MiB heap, counted as the parsed documents really take (`document-store.ts`). */
  DOCUMENT_CACHE_BYTES: 16_777_216,
  /**
   * 1,024 open client connections: 1,024 idle ones cost 14 to 20 MiB of RSS (measured,
   * `test/hardening/edge-lockout.test.ts`); what they may carry is bounded apart (`MAX_INFLIGHT_BODY_BYTES`),
   * so they fit the 512 Mi of `deploy/kubernetes/web.yaml` beside the 256 MiB heap.
   */
  MAX_CONNECTIONS: 1_024,
  /**
   * A sixteenth of the total: filling it takes sixteen addresses (and even then idle connections are
   * closed to make room); 64 requests at once is as many as `UPSTREAM_MAX_CONCURRENT` runs. Behind a proxy
   * every connection is the proxy's: `deploy/kubernetes/gateway-config.yaml` raises it to the total.
   */
  MAX_CONNECTIONS_PER_ADDRESS: 64,
  /** 32 MiB: request bodies being received or served at once, held in the heap until the answer is sent. */
  MAX_INFLIGHT_BODY_BYTES: 33_554_432,
  MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS: 8_388_608,
  HTTP_REQUEST_TIMEOUT_MS: 10_000,
  HTTP_HEADERS_TIMEOUT_MS: 5_000,
  /** Longer than the usual 60 s of load balancers, so they close first. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: 72_000,
  HTTP_CONNECTION_TIMEOUT_MS: 30_000,
  LOGIN_MAX_CONSECUTIVE_FAILURES: 10,
  LOGIN_BLOCK_SECONDS: 3600,
  LOGIN_MAX_FAILURES_PER_USER: 100,
  LOGIN_MAX_FAILURES_PER_IP: 100,
  LOGIN_MAX_TRACKED_COUNTERS: 50_000,
  LOGIN_FAILURE_MIN_MS: 400,
  /** 90 days. */
  LOGIN_DEVICE_TTL_SECONDS: 7_776_000,
  UPSTREAM_READ_RETRIES: 2,
  UPSTREAM_RETRY_BUDGET_PERCENT: 20,
  UPSTREAM_BREAKER_FAILURE_PERCENT: 50,
  UPSTREAM_BREAKER_WINDOW_MS: 10_000,
  UPSTREAM_BREAKER_MIN_CALLS: 20,
  UPSTREAM_BREAKER_MIN_SOURCES: 2,
  UPSTREAM_BREAKER_HALF_OPEN_MS: 5_000,
  UPSTREAM_MAX_CONCURRENT: 64,
  UPSTREAM_MAX_QUEUED: 512,
  UPSTREAM_MAX_QUEUED_PER_SESSION: 64,
  UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES: 32 * 1024 * 1024,
  UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER: 16 * 1024 * 1024,
  TRUSTED_DOCUMENTS_ONLY: false,
  UPSTREAM_PROPAGATE_TRACE: false,
  FEDERATION: false,
  RELAY_NODE: false,
  SHUTDOWN_DELAY_MS: 0,
  SHUTDOWN_GRACE_MS: 10_000,
} as const;

/** The largest upstream answer read (the upstream client's `maxResponseBytes`; not a setting). */
export const UPSTREAM_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Bytes of each upstream answer the answer budget's total never refuses (`answer-budget.ts`). */
export const UPSTREAM_SMALL_ANSWER_BYTES = 64 * 1024;

/** A setting that has a fixed default. */
export type DefaultedSetting = keyof typeof SETTING_DEFAULTS;
