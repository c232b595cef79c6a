/**
 * The settings of the upstream: how its wire is spoken, what it cannot take, its deadlines and
 * connections, resilience and tracing. Each field is one setting (`setting.ts`), written here only.
 */
import { z } from 'zod';
import { baggageKeys, bool, int, objectFields, regex } from './parsers.ts';
import { setting } from './setting.ts';

/** The upstream's settings, shaped as `GatewayConfig` reads them. */
export const UPSTREAM_SETTINGS = {
  matchesMode: setting(
    'UPSTREAM_MATCHES',
    z.enum(['regex', 'find', 'exact']).default('regex'),
    'How the upstream matches `matches` patterns: a full-string regex, a found regex, or plain equality.',
  ),
  pageStartMode: setting(
    'UPSTREAM_PAGE_START',
    z.enum(['page0', 'page1', 'offset']).default('page0'),
    'How `pageStart` counts.',
  ),
  // The upstream's dialect where the interface document is silent (docs/upstream-contract.md, "Assumptions";
  // `src/upstream/dialect/assumptions.ts`): each is probed by `npm run upstream:check`.
  answerCharset: setting(
    'UPSTREAM_ANSWER_CHARSET',
    z.enum(['utf-8', 'iso-8859-1', 'windows-1252']).default('utf-8'),
    'Charset of upstream answers whose Content-Type names none.',
  ),
  requestCharset: setting(
    'UPSTREAM_REQUEST_CHARSET',
    z.enum(['utf-8', 'iso-8859-1']).default('utf-8'),
    'Charset of the form login body, declared in its Content-Type (JSON bodies are ASCII with `\\u` escapes).',
  ),
  upstreamMaxPageSize: setting(
    'UPSTREAM_MAX_PAGE_SIZE',
    int(1, 100_000).default(1000),
    'Largest page and id batch the upstream serves; larger ones are split into calls of at most this size.',
  ),
  // MongoDB's `$regex` never matches a number, boolean, date or `{"$oid"}`: filtering such a field would
  // answer empty without a word, so the gateway refuses it before sending (`npm run upstream:check` finds them).
  unfilterableFields: setting(
    'UPSTREAM_UNFILTERABLE_FIELDS',
    objectFields.default([]),
    "Fields (`objectName.field`) the upstream's `matches` cannot see; a filter on one is refused, never answered empty.",
  ),
  matchesCase: setting(
    'UPSTREAM_MATCHES_CASE',
    z.enum(['sensitive', 'insensitive']).default('sensitive'),
    "Whether the upstream's `matches` ignores case; `insensitive` sends every pattern with `(?-i)`.",
  ),
  saveIdAt: setting(
    'UPSTREAM_SAVE_ID_AT',
    z.enum(['savedObjectId', 'data._id', 'data']).default('savedObjectId'),
    "Where a save answer carries the saved object's id.",
  ),
  saveWithId: setting(
    'UPSTREAM_SAVE_WITH_ID',
    z.enum(['merges', 'replaces']).default('merges'),
    'What a save naming an existing `_id` does upstream; with `replaces` the gateway reads, merges and writes.',
  ),
  updateFields: setting(
    'UPSTREAM_UPDATE_FIELDS',
    z.enum(['data', 'params']).default('data'),
    'How update takes its fields: one JSON query parameter `data`, or one query parameter per field.',
  ),
  writeReadBackMillis: setting(
    'UPSTREAM_WRITE_READ_BACK_MS',
    int(0, 60_000).default(2_000),
    "How long a write's read-back may wait for the upstream's reads to show it (reads from a lagging replica).",
  ),
  metadataKey: setting(
    'UPSTREAM_METADATA_KEY',
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)
      .default('data'),
    'The key of the metadata answer that holds its payload.',
  ),
  tenantField: setting(
    'UPSTREAM_TENANT_FIELD',
    z
      .string()
      .regex(/^[A-Za-z_$][A-Za-z0-9_$]{0,63}(?:\.[A-Za-z_$][A-Za-z0-9_$]{0,63}){0,7}$/)
      .default('organizationCode'),
    'The record field (a dotted path) naming the organization a record belongs to.',
  ),
  authErrorPattern: setting(
    'UPSTREAM_AUTH_ERROR_PATTERN',
    regex.default(/token|credential|unauthori[sz]ed|session/i),
    'Upstream messages meaning "token no good" (`UNAUTHENTICATED`).',
  ),
  forbiddenErrorPattern: setting(
    'UPSTREAM_FORBIDDEN_ERROR_PATTERN',
    regex.default(/not open to|forbidden|not allowed|permission|access denied/i),
    'Upstream messages meaning "not open to this user" (`FORBIDDEN`).',
  ),
  // The upstream refused the caller's input (a pattern it cannot compile, an operator or object name it does
  // not know), which no retry and no other caller can change.
  callerErrorPattern: setting(
    'UPSTREAM_CALLER_ERROR_PATTERN',
    regex.default(
      /regular expression|regex|pattern|operator|unknown object|object ?name|invalid filter|filtercommand/i,
    ),
    'Upstream messages meaning "the caller\'s input is wrong" (`BAD_USER_INPUT`).',
  ),
  /** What the upstream cannot take, refused before sending; see `src/upstream/client/request-checks.ts`. */
  upstreamRequestLimits: {
    maxIdLength: setting(
      'UPSTREAM_MAX_ID_LENGTH',
      int(1, 100_000).default(256),
      'Longest id, in UTF-16 units.',
    ),
    // Tomcat's `maxHttpHeaderSize`.
    maxUrlBytes: setting(
      'UPSTREAM_MAX_URL_BYTES',
      int(1024, 1_048_576).default(8_192),
      'Longest upstream request line plus headers, in bytes.',
    ),
    maxDataDepth: setting(
      'UPSTREAM_MAX_DATA_DEPTH',
      int(1, 1000).default(32),
      'Deepest nesting of objects and arrays in written data.',
    ),
    maxDataBytes: setting(
      'UPSTREAM_MAX_DATA_BYTES',
      int(1024, 100 * 1024 * 1024).default(1_048_576),
      'Largest written data, as JSON, in bytes.',
    ),
  },
  maxPatternLength: setting(
    'MAX_PATTERN_LENGTH',
    int(1, 100_000).default(512),
    'Longest caller-written `matches` pattern.',
  ),
  upstreamConnectTimeoutMillis: setting(
    'UPSTREAM_CONNECT_TIMEOUT_MS',
    int(1, 600_000).default(2_000),
    'Upstream connection deadline.',
  ),
  upstreamHeadersTimeoutMillis: setting(
    'UPSTREAM_HEADERS_TIMEOUT_MS',
    int(1, 600_000).default(5_000),
    'Deadline for the upstream response headers.',
  ),
  upstreamBodyTimeoutMillis: setting(
    'UPSTREAM_BODY_TIMEOUT_MS',
    int(1, 600_000).default(5_000),
    'Deadline between upstream body chunks.',
  ),
  upstreamCallTimeoutMillis: setting(
    'UPSTREAM_CALL_TIMEOUT_MS',
    int(1, 600_000).default(10_000),
    'Deadline for a whole upstream call.',
  ),
  upstreamConnections: setting(
    'UPSTREAM_CONNECTIONS',
    int(1, 1024).default(32),
    'Keep-alive connections per upstream origin.',
  ),
  /** Upstream resilience; see `src/upstream/resilience/resilience.ts`. */
  resilience: {
    readRetries: setting('UPSTREAM_READ_RETRIES', int(0, 10).default(2), 'Retries of a failed read.'),
    retryBudgetPercent: setting(
      'UPSTREAM_RETRY_BUDGET_PERCENT',
      int(0, 100).default(20),
      'Retries as a share of recent successes.',
    ),
    breakerFailurePercent: setting(
      'UPSTREAM_BREAKER_FAILURE_PERCENT',
      int(1, 99).default(50),
      'Share of sick answers in the window that opens a breaker.',
    ),
    breakerWindowMillis: setting(
      'UPSTREAM_BREAKER_WINDOW_MS',
      int(1000, 600_000).default(10_000),
      'The window the breaker samples.',
    ),
    breakerMinimumCalls: setting(
      'UPSTREAM_BREAKER_MIN_CALLS',
      int(1, 1_000_000).default(20),
      'Calls in the window before the breaker may open.',
    ),
    breakerMinimumSources: setting(
      'UPSTREAM_BREAKER_MIN_SOURCES',
      int(1, 1000).default(2),
      'Users whose calls failed in the window before it may open.',
    ),
    breakerHalfOpenAfterMillis: setting(
      'UPSTREAM_BREAKER_HALF_OPEN_MS',
      int(1, 600_000).default(5_000),
      'How long an open breaker fails fast before a probe.',
    ),
    maxConcurrentCalls: setting(
      'UPSTREAM_MAX_CONCURRENT',
      int(1, 100_000).default(64),
      'Upstream calls in flight.',
    ),
    maxQueuedCalls: setting(
      'UPSTREAM_MAX_QUEUED',
      int(0, 1_000_000).default(512),
      'Calls waiting for a slot before `overloaded`.',
    ),
    maxQueuedCallsPerSession: setting(
      'UPSTREAM_MAX_QUEUED_PER_SESSION',
      int(0, 1_000_000).default(64),
      "One session's waiting calls before `TOO_MANY_REQUESTS`.",
    ),
    maxInflightAnswerBytes: setting(
      'UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES',
      int(1024, 4 * 1024 ** 3).default(32 * 1024 * 1024),
      'Upstream answer bytes held at once, all callers together.',
    ),
    maxInflightAnswerBytesPerUser: setting(
      'UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER',
      int(1024, 4 * 1024 ** 3).default(16 * 1024 * 1024),
      "One user's share of the upstream answer bytes held at once.",
    ),
  },
  upstreamPropagateTrace: setting(
    'UPSTREAM_PROPAGATE_TRACE',
    bool.default(false),
    'Send W3C trace context upstream when tracing is on.',
  ),
  upstreamBaggageKeys: setting(
    'UPSTREAM_BAGGAGE_KEYS',
    baggageKeys.default([]),
    "The caller's baggage entries sent upstream when tracing is on; none if empty.",
  ),
} as const;
