/**
 * The validated settings, as the rest of the gateway reads them. Durations carry their unit in the name;
 * each field names its environment variable, whose default is in `SETTING_DEFAULTS` (`defaults.ts`).
 */
import type { QueryLimitsOptions } from '../limits/armor.ts';
import type { MatchesMode, PageStartMode, UpstreamUrls } from '../upstream/client/types.ts';

/** Where the upstream is: four base addresses, or the embedded emulator. */
export type UpstreamTarget =
  | { kind: 'remote'; urls: UpstreamUrls }
  | {
      kind: 'embedded';
      /** `EMULATOR_PORT`; `0` (the default) lets the system choose a free port. */
      emulatorPort: number;
      /** `EMULATOR_DATA_FILE`: the file its data is kept in across restarts; `undefined` = in memory. */
      dataFile?: string;
      /** `UPSTREAM=emulator` asked for it explicitly (required in production, where it is loudly logged). */
      explicit: boolean;
      /** All four at the emulator's address, once it listens (`withEmulatorAt`); unset before. */
      urls?: UpstreamUrls;
    };

/** The validated settings (see the module comment). */
export interface GatewayConfig {
  production: boolean;
  host: string;
  port: number;
  logLevel: string;
  /** `LOG_REQUESTS`: log every request (`all`), or only failed and slow ones (`errors`, production's default). */
  logRequests: 'all' | 'errors';
  /** `LOG_LEVEL_FORMAT`: a line's `level` as pino's number (`30`) or as its name (`info`). */
  logLevelFormat: 'number' | 'label';
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
  /** `SESSION_REVOCATIONS_PER_USER`: logged-out sessions of one user listed one by one before they are folded. */
  sessionRevocationsPerUser: number;
  /** `SESSION_REVOCATIONS_MAX`: logged-out sessions of all users listed in this process. */
  sessionRevocationsMax: number;
  /** `ALLOWED_ORGANIZATION_CODES`: the organizations a login may choose; empty = any well-formed code. */
  allowedOrganizationCodes: string[];
  loginMethod: 'JSON' | 'FORM';
  matchesMode: MatchesMode;
  pageStartMode: PageStartMode;
  authErrorPattern: RegExp;
  /** `UPSTREAM_FORBIDDEN_ERROR_PATTERN`: upstream messages meaning "not open to this user" (`FORBIDDEN`). */
  forbiddenErrorPattern: RegExp;
  /** `UPSTREAM_CALLER_ERROR_PATTERN`: upstream messages meaning "the caller's input is wrong" (`BAD_USER_INPUT`). */
  callerErrorPattern: RegExp;
  /** What the upstream cannot take, refused before sending; see `src/upstream/client/request-checks.ts`. */
  upstreamRequestLimits: {
    /** `UPSTREAM_MAX_ID_LENGTH`. */
    maxIdLength: number;
    /** `UPSTREAM_MAX_URL_BYTES`: request line and headers. */
    maxUrlBytes: number;
    /** `UPSTREAM_MAX_DATA_DEPTH`. */
    maxDataDepth: number;
    /** `UPSTREAM_MAX_DATA_BYTES`. */
    maxDataBytes: number;
  };
  /** `MAX_PATTERN_LENGTH`: longest caller-written `matches` pattern. */
  maxPatternLength: number;
  /** `READINESS_REQUIRES_UPSTREAM`: `/readyz` fails while the upstream is down. */
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
  /** `MAX_DEPTH`, `MAX_ALIASES`, `MAX_DIRECTIVES`, `MAX_TOKENS`, `MAX_COST`. */
  queryLimits: QueryLimitsOptions;
  /**
   * `MAX_UPSTREAM_CALLS_PER_REQUEST`: upstream calls one GraphQL request may make; estimated before
   * execution and enforced during it (`MAX_UPSTREAM_CALLS_EXCEEDED`).
   */
  maxUpstreamCallsPerRequest: number;
  /** `MAX_BODY_BYTES`: largest request body; more is `BODY_TOO_LARGE`. */
  maxBodyBytes: number;
  /** What a GraphQL document may cost before and after parsing; see `src/limits/document-limits.ts`. */
  documentLimits: {
    /** `MAX_DOCUMENT_BYTES`: largest document text a caller may send (UTF-8); more is `DOCUMENT_TOO_LARGE`. */
    maxBytes: number;
    /** `MAX_COMMENT_BYTES`: comment text in one document; more is `COMMENTS_TOO_LARGE`. */
    maxCommentBytes: number;
    /** `DOCUMENT_CACHE_BYTES`: the parsed-document cache's total, counted as the heap it takes; `0` = off. */
    cacheBytes: number;
  };
  /** Connections and request bodies held at once; see `src/http/capacity/connection-limits.ts`. */
  connectionLimits: {
    /** `MAX_CONNECTIONS`: open client connections in all. */
    maxConnections: number;
    /** `MAX_CONNECTIONS_PER_ADDRESS`: open connections from one peer address. */
    maxConnectionsPerAddress: number;
    /** `MAX_INFLIGHT_BODY_BYTES`: declared bytes of request bodies not yet answered, in all. */
    maxInflightBodyBytes: number;
    /** `MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS`: the same from one client address. */
    maxInflightBodyBytesPerAddress: number;
  };
  /** The HTTP listener's timeouts, which reap slow or silent clients; see `src/http/server-options.ts`. */
  http: {
    /** `HTTP_REQUEST_TIMEOUT_MS`: to receive a whole request, headers and body (408 after). */
    requestTimeoutMillis: number;
    /** `HTTP_HEADERS_TIMEOUT_MS`: to receive a request's headers; at most the above. */
    headersTimeoutMillis: number;
    /** `HTTP_KEEP_ALIVE_TIMEOUT_MS`: an idle keep-alive connection is closed after this. */
    keepAliveTimeoutMillis: number;
    /** `HTTP_CONNECTION_TIMEOUT_MS`: a connection silent both ways (a client not reading) is closed. */
    connectionTimeoutMillis: number;
  };
  /** `TRUSTED_PROXIES`: peers (addresses, CIDRs, `loopback`) whose `x-forwarded-for` is believed. */
  trustedProxies: string[];
  /** `REDIS_URL`: where login counters are shared by replicas. Never logged. */
  redisUrl: string | undefined;
  /** Login protection; see `src/auth/login-limiter.ts`. */
  login: {
    /** `LOGIN_MAX_CONSECUTIVE_FAILURES`: per username + client IP. */
    maxConsecutiveFailures: number;
    /** `LOGIN_BLOCK_SECONDS`. */
    blockSeconds: number;
    /** `LOGIN_MAX_FAILURES_PER_USER`: failures of unknown clients per account per block window. */
    maxFailuresPerUser: number;
    /** `LOGIN_MAX_FAILURES_PER_IP`: distinct accounts failing from one client IP per day. */
    maxFailuresPerIp: number;
    /** `LOGIN_MAX_TRACKED_COUNTERS`: failed-login counters this process makes, all kinds together. */
    maxTrackedCounters: number;
    /** `LOGIN_DEVICE_TTL_SECONDS`: lifetime of device tokens and of username/mobile links. */
    deviceTtlSeconds: number;
    /** `LOGIN_FAILURE_MIN_MS`: the least time a failed login takes to answer. */
    minFailureMillis: number;
  };
  /** Upstream resilience; see `src/upstream/resilience/resilience.ts`. */
  resilience: {
    /** `UPSTREAM_READ_RETRIES`. */
    readRetries: number;
    /** `UPSTREAM_RETRY_BUDGET_PERCENT`: retries as a share of recent successes. */
    retryBudgetPercent: number;
    /** `UPSTREAM_BREAKER_FAILURE_PERCENT`: share of sick answers in the window that opens a breaker. */
    breakerFailurePercent: number;
    /** `UPSTREAM_BREAKER_WINDOW_MS`: the window the breaker samples. */
    breakerWindowMillis: number;
    /** `UPSTREAM_BREAKER_MIN_CALLS`: calls in the window before the breaker may open. */
    breakerMinimumCalls: number;
    /** `UPSTREAM_BREAKER_MIN_SOURCES`: users whose calls failed in the window before it may open. */
    breakerMinimumSources: number;
    /** `UPSTREAM_BREAKER_HALF_OPEN_MS`. */
    breakerHalfOpenAfterMillis: number;
    /** `UPSTREAM_MAX_CONCURRENT`: upstream calls in flight. */
    maxConcurrentCalls: number;
    /** `UPSTREAM_MAX_QUEUED`: calls waiting for a slot before `overloaded`. */
    maxQueuedCalls: number;
    /** `UPSTREAM_MAX_CONCURRENT_PER_SESSION`: one session's share of the bulkhead. */
    maxConcurrentCallsPerSession: number;
    /** `UPSTREAM_MAX_QUEUED_PER_SESSION`: one session's waiting calls before `TOO_MANY_REQUESTS`. */
    maxQueuedCallsPerSession: number;
    /** `UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES`: upstream answer bytes held at once, all callers together. */
    maxInflightAnswerBytes: number;
    /** `UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER`: one user's share of them. */
    maxInflightAnswerBytesPerUser: number;
  };
  /** Trusted (persisted) documents; see `src/trusted/`. */
  trustedDocuments: {
    /** `TRUSTED_DOCUMENTS`: manifest files (hash → document), comma-separated. */
    files: string[];
    /** `TRUSTED_DOCUMENTS_ONLY`: refuse every document no manifest holds. */
    only: boolean;
  };
  /** `FEDERATION`: serve the schema as an Apollo Federation 2 subgraph (`src/federation/`). */
  federation: boolean;
  /**
   * `FEDERATION_NAME_PREFIX`: with federation, renames the gateway's own root fields and types that commonly
   * collide in a supergraph (`me` → `objectsMe`, `User` → `ObjectsUser`; `src/federation/name-prefix.ts`).
   */
  federationNamePrefix: string | undefined;
  /** `RELAY_NODE`: Relay's `Node` interface, global `id`s and `node`/`nodes` (`src/typed/relay-node.ts`). */
  relayNode: boolean;
  /** `UPSTREAM_PROPAGATE_TRACE`: send W3C trace context upstream when tracing is on. */
  upstreamPropagateTrace: boolean;
  /** `UPSTREAM_BAGGAGE_KEYS`: the caller's baggage entries sent upstream when tracing is on; none if empty. */
  upstreamBaggageKeys: string[];
  /** SIGTERM handling; see `src/app/shutdown.ts`. */
  shutdown: {
    /** `SHUTDOWN_DELAY_MS`: readiness says "draining" this long before the listener closes. */
    delayMillis: number;
    /** `SHUTDOWN_GRACE_MS`: how long in-flight requests may take to finish. */
    graceMillis: number;
  };
}
