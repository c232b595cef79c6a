/**
 * The settings of the gateway's own edge: where it listens, its logs, what one request may cost, the
 * HTTP listener's bounds, trusted documents, the schema's options and shutdown. Each field is one setting
 * (`setting.ts`): its variable, parser, default and doc line, written here only.
 */
import { z } from 'zod';
import { bool, int, list, origins, proxies } from './parsers.ts';
import { setting } from './setting.ts';

/** The edge's settings, shaped as `GatewayConfig` reads them. */
export const SERVER_SETTINGS = {
  host: setting('HOST', z.string().min(1).default('127.0.0.1'), 'Address the gateway listens on.'),
  port: setting('PORT', int(0, 65_535).default(4000), 'Port the gateway listens on.'),
  logLevel: setting(
    'LOG_LEVEL',
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    "pino's level.",
  ),
  logLevelFormat: setting(
    'LOG_LEVEL_FORMAT',
    z.enum(['number', 'label']).default('number'),
    "A line's `level` as pino's number (`30`) or as its name (`info`).",
  ),
  // With `LOG_REQUESTS=errors`, a share of the successful requests still gets its line: a healthy
  // replica's traffic is then visible in the logs at a fraction of the cost of logging it all.
  logRequestsSample: setting(
    'LOG_REQUESTS_SAMPLE',
    z.coerce.number().min(0).max(1).default(0),
    'With `LOG_REQUESTS=errors`: the share of successful requests logged anyway (`0.01`: one in a hundred).',
  ),
  // Set at image build (`docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD)`); a label value, so short.
  gitCommit: setting(
    'GIT_COMMIT',
    z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, { error: 'must be a commit id (letters, digits, `._-`, 64 at most)' })
      .default('unknown'),
    'The commit the image was built from, for `gateway_build_info`.',
  ),
  objectTypesDir: setting(
    'OBJECT_TYPES_DIR',
    z.string().min(1).optional(),
    "The folder of typed object types; unset = the repository's `schema/objects/`.",
  ),
  traceResolvers: setting(
    'TRACE_RESOLVERS',
    bool.default(false),
    'With tracing on, a span per resolved field under the operation span (off: none).',
  ),
  readinessRequiresUpstream: setting(
    'READINESS_REQUIRES_UPSTREAM',
    bool.default(false),
    '`/readyz` fails while the upstream is down.',
  ),
  maxPageSize: setting('MAX_PAGE_SIZE', int(1, 1000).default(100), 'Largest page of `objects`.'),
  defaultPageSize: setting(
    'DEFAULT_PAGE_SIZE',
    int(1, 1000).default(20),
    'Page of `objects` asked for no size.',
  ),
  requestTimeoutMillis: setting(
    'REQUEST_TIMEOUT_MS',
    int(1, 600_000).default(15_000),
    'Deadline of one GraphQL request.',
  ),
  corsOrigins: setting(
    'CORS_ORIGINS',
    origins.default([]),
    'Browser origins allowed by CORS; none if empty.',
  ),
  /** See `src/limits/armor.ts`. */
  queryLimits: {
    maxDepth: setting('MAX_DEPTH', int(1, 1000).default(6), 'Deepest field nesting.'),
    maxAliases: setting('MAX_ALIASES', int(0, 10_000).default(15), 'Aliases in one operation.'),
    maxDirectives: setting('MAX_DIRECTIVES', int(0, 10_000).default(50), 'Directives in one operation.'),
    maxTokens: setting('MAX_TOKENS', int(10, 1_000_000).default(1000), 'Lexical tokens in one document.'),
    // 10,000: the page size in a variable counts as a written one, so a full page (`MAX_PAGE_SIZE`, 100) of
    // a typed type with a reference, as Apollo Client sends it (`__typename` added), costs about 5,300.
    maxCost: setting(
      'MAX_COST',
      int(1, 10_000_000).default(10_000),
      "Armor's cost (objects 2, scalars 1, ×1.5 per level).",
    ),
  },
  maxUpstreamCallsPerRequest: setting(
    'MAX_UPSTREAM_CALLS_PER_REQUEST',
    int(1, 100_000).default(50),
    'Upstream calls one GraphQL request may make, estimated before and enforced during execution.',
  ),
  /**
   * What one answer may hold and what all answers being built may hold at once, counted in characters of
   * JSON (`src/limits/answer-size/answer-size-limit.ts`). 16 MiB: two largest upstream answers (8 MiB) read back whole.
   */
  answerLimits: {
    maxAnswerBytes: setting(
      'MAX_ANSWER_BYTES',
      int(65_536, 1024 * 1024 * 1024).default(16_777_216),
      'Characters of JSON one answer may hold: estimated before execution, counted while it is built.',
    ),
    // 64 MiB of the 256 MiB heap: an answer's string and the socket's copy of it stay within the pod's limit.
    maxInflightAnswerBytes: setting(
      'MAX_INFLIGHT_ANSWER_BYTES',
      int(65_536, 16 * 1024 * 1024 * 1024).default(67_108_864),
      'Characters of JSON of the answers being built at once, in all.',
    ),
    maxInflightAnswerBytesPerUser: setting(
      'MAX_INFLIGHT_ANSWER_BYTES_PER_USER',
      int(65_536, 16 * 1024 * 1024 * 1024).default(16_777_216),
      'Of those, what one user may hold; requests without a session hold a sixteenth of it together.',
    ),
  },
  maxBodyBytes: setting(
    'MAX_BODY_BYTES',
    int(1024, 100 * 1024 * 1024).default(100_000),
    'Largest request body; more is `BODY_TOO_LARGE`.',
  ),
  /** What a GraphQL document may cost before and after parsing; see `src/limits/document-limits.ts`. */
  documentLimits: {
    // 32 KiB: a thousand tokens (`MAX_TOKENS`) of a printed document take about 5 KiB (measured).
    maxBytes: setting(
      'MAX_DOCUMENT_BYTES',
      int(256, 100 * 1024 * 1024).default(32_768),
      'Largest document text a caller may send (UTF-8); more is `DOCUMENT_TOO_LARGE`.',
    ),
    maxCommentBytes: setting(
      'MAX_COMMENT_BYTES',
      int(0, 100 * 1024 * 1024).default(4_096),
      'Comment text in one document; more is `COMMENTS_TOO_LARGE`.',
    ),
    // 16 MiB of the 256 MiB heap, counted as the parsed documents really take (`document-store.ts`).
    cacheBytes: setting(
      'DOCUMENT_CACHE_BYTES',
      int(0, 1024 * 1024 * 1024).default(16_777_216),
      "The parsed-document cache's total, counted as the heap it takes; `0` = off.",
    ),
  },
  /** Connections and request bodies held at once; see `src/http/capacity/connection-limits.ts`. */
  connectionLimits: {
    // 1,024 idle connections cost 14 to 20 MiB of RSS (measured, `test/hardening/edge-lockout.test.ts`);
    // what they may carry is bounded apart, so they fit `deploy/kubernetes/web.yaml` beside the heap.
    maxConnections: setting(
      'MAX_CONNECTIONS',
      int(1, 1_000_000).default(1_024),
      'Open client connections in all.',
    ),
    // A sixteenth of the total: filling it takes sixteen addresses; 64 is what `UPSTREAM_MAX_CONCURRENT`
    // runs. Behind a proxy every connection is the proxy's: `deploy/kubernetes/gateway-config.yaml` raises it.
    maxConnectionsPerAddress: setting(
      'MAX_CONNECTIONS_PER_ADDRESS',
      int(1, 1_000_000).default(64),
      'Open connections from one peer address.',
    ),
    // A browser keeps its few connections alive, so 16 new ones a second (after a burst of the address's
    // whole share) is far more than one needs; a connection past it waits, unread, for its turn: accepting,
    // parsing and closing one costs the gateway about 200 µs (`npm run bench:churn`). Behind a proxy:
    // `deploy/kubernetes/gateway-config.yaml` raises it with the share.
    newConnectionsPerAddressPerSecond: setting(
      'MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND',
      int(1, 1_000_000).default(16),
      'New connections one peer address may open a second, after a burst of `MAX_CONNECTIONS_PER_ADDRESS`; more wait their turn.',
    ),
    // HTTP/1.1 answers in order, so a pipelined request run early only holds memory: one runs per connection,
    // these wait (no browser pipelines; 8 covers the clients that do). One more: 503, the connection closed.
    maxPipelinedRequests: setting(
      'MAX_PIPELINED_REQUESTS',
      int(0, 1_000).default(8),
      'Requests that may wait behind the running one on one connection (HTTP/1.1 pipelining).',
    ),
    // 32 MiB: request bodies being received or served at once, held in the heap until the answer is sent.
    maxInflightBodyBytes: setting(
      'MAX_INFLIGHT_BODY_BYTES',
      int(1024, 16 * 1024 * 1024 * 1024).default(33_554_432),
      'Declared bytes of request bodies not yet answered, in all.',
    ),
    maxInflightBodyBytesPerAddress: setting(
      'MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS',
      int(1024, 16 * 1024 * 1024 * 1024).default(8_388_608),
      'Declared bytes of request bodies not yet answered, from one client address.',
    ),
  },
  /** The HTTP listener's timeouts, which reap slow or silent clients; see `src/http/server-options.ts`. */
  http: {
    requestTimeoutMillis: setting(
      'HTTP_REQUEST_TIMEOUT_MS',
      int(1, 600_000).default(10_000),
      'To receive a whole request, headers and body (408 after).',
    ),
    headersTimeoutMillis: setting(
      'HTTP_HEADERS_TIMEOUT_MS',
      int(1, 600_000).default(5_000),
      "To receive a request's headers; at most the above.",
    ),
    // Longer than the usual 60 s of load balancers, so they close first.
    keepAliveTimeoutMillis: setting(
      'HTTP_KEEP_ALIVE_TIMEOUT_MS',
      int(1, 600_000).default(72_000),
      'An idle keep-alive connection is closed after this.',
    ),
    connectionTimeoutMillis: setting(
      'HTTP_CONNECTION_TIMEOUT_MS',
      int(1, 3_600_000).default(30_000),
      'A connection silent both ways (a client not reading) is closed after this.',
    ),
  },
  trustedProxies: setting(
    'TRUSTED_PROXIES',
    proxies.default([]),
    "Proxies (addresses, CIDRs, `loopback`) whose `x-forwarded-for` is believed at any hop, the direct peer included: the pod's own proxy.",
  ),
  trustedOuterProxies: setting(
    'TRUSTED_OUTER_PROXIES',
    proxies.default([]),
    "Proxies (addresses, CIDRs) believed only behind a `TRUSTED_PROXIES` hop, never as the direct peer: an Ingress controller's pod network.",
  ),
  /** Trusted (persisted) documents; see `src/trusted/`. */
  trustedDocuments: {
    files: setting(
      'TRUSTED_DOCUMENTS',
      list.default([]),
      'Manifest files (hash → document), comma-separated.',
    ),
    only: setting('TRUSTED_DOCUMENTS_ONLY', bool.default(false), 'Refuse every document no manifest holds.'),
  },
  federation: setting(
    'FEDERATION',
    bool.default(false),
    'Serve the schema as an Apollo Federation 2 subgraph (`src/federation/`).',
  ),
  federationNamePrefix: setting(
    'FEDERATION_NAME_PREFIX',
    z
      .string()
      .regex(
        /^[A-Z][A-Za-z0-9]{0,31}$/,
        'must be a capitalised GraphQL name of at most 32 letters and digits, e.g. Objects',
      )
      .optional(),
    "With federation, renames the gateway's own root fields and types that commonly collide in a supergraph.",
  ),
  relayNode: setting(
    'RELAY_NODE',
    bool.default(false),
    "Relay's `Node` interface, global `id`s and `node`/`nodes` (`src/typed/relay-node.ts`).",
  ),
  compiledExecution: setting(
    'COMPILED_EXECUTION',
    bool.default(true),
    'Each document compiled once into a function (graphql-jit) that executes it; off: graphql-js interprets it on every request (`src/execution/compiled-executor.ts`).',
  ),
  /** SIGTERM handling; see `src/app/shutdown.ts`. */
  shutdown: {
    delayMillis: setting(
      'SHUTDOWN_DELAY_MS',
      int(0, 600_000).default(0),
      'Readiness says "draining" this long before the listener closes.',
    ),
    graceMillis: setting(
      'SHUTDOWN_GRACE_MS',
      int(0, 600_000).default(10_000),
      'How long in-flight requests may take to finish.',
    ),
  },
} as const;
