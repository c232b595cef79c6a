/**
 * The public surface of the upstream client: what resolvers and loaders may call. Framework-free: no
 * GraphQL type appears here.
 */
import type { Dispatcher } from 'undici';
import type { RequestLimits } from './request-checks.ts';
import type { FormLoginAnswer, JsonLoginAnswer, UpdateAnswer } from './answers/response-schemas.ts';
import type { Criterion as WireCriterion, MatchesMode, UpstreamRecord, WireOperation } from './wire.ts';
import type { CriterionMeaning } from '../dialect/answers/criterion-meaning.ts';

// The wire's own words, declared once in wire.ts; re-exported as part of the client's surface.
export type { MatchesMode, UpstreamRecord, WireOperation } from './wire.ts';

/**
 * One condition of a read, as sent (`fieldName`, `operator`, `value`: all the client puts on the wire) and,
 * for a filter the caller wrote, what it means (`dialect/answers/`): every record answered is held to it.
 */
export interface Criterion extends WireCriterion {
  /** Not sent, not part of any cache key: the compiled `value` already says the same. */
  readonly meaning?: CriterionMeaning | undefined;
}

/** Who is calling: what a session carries. `apiToken` and `sessionCookie` are secrets, never logged. */
export interface UpstreamCredentials {
  username: string;
  /** The login's token; empty when the session travels in {@link UpstreamCredentials.sessionCookie} (then not sent). */
  apiToken: string;
  applicationCode: string;
  organizationCode?: string | undefined;
  /** The `Cookie` header of a form login that answered a session cookie instead of a token. */
  sessionCookie?: string | undefined;
  /**
   * Whose shares and breaker vote the call takes: the session's canonical user key (`src/auth/user-key.ts`),
   * one for every login name of an account. Read through `callerOf` (`src/upstream/caller.ts`).
   */
  userKey?: string | undefined;
}

/** Result of the JSON login (`/v1/user/login`). */
export type JsonLoginResult = Omit<JsonLoginAnswer, 'status'>;

/**
 * Result of the form login (`/app/login.jsp`); `token` is optional in the document. Without one,
 * `sessionCookie` is the `Cookie` header of the session the login set (the login throws
 * `dialect_mismatch` when it set none the session's calls could carry).
 */
export type FormLoginResult = Omit<FormLoginAnswer, 'status'> & { sessionCookie?: string | undefined };

/** A page of getAll. */
export interface ReadPage {
  records: UpstreamRecord[];
  totalCount: number;
}

/** Result of save: the saved object's id, wherever the upstream answered it (`UPSTREAM_SAVE_ID_AT`). */
export interface SaveResult {
  savedObjectId: string;
  message: string;
}

/** Result of update. */
export type UpdateResult = Omit<UpdateAnswer, 'status'>;

/** How the upstream counts `pageStart` (docs/design.md): zero-based page, one-based page, or record offset. */
export type PageStartMode = 'page0' | 'page1' | 'offset';

/** The upstream's four base addresses (the settings `API_URL`, `BASE_URL`, `STUDIO_URL`, `SERVER_URL`). */
export interface UpstreamUrls {
  /** Base of the JSON login (`{api_url}`); may carry a path prefix; trailing slash optional. */
  apiUrl: string;
  /** Base of the form login (`{base_url}`). */
  baseUrl: string;
  /** Base of the read operations (`{studio_url}`). */
  studioUrl: string;
  /** Base of save and update (`{server_url}`). */
  serverUrl: string;
}

/**
 * The settings of {@link UpstreamClient}, taken as given (`clientSettingsOf(config)`: the defaults are the
 * config's). Every deadline is in milliseconds.
 */
export interface UpstreamClientSettings {
  /** How `pageStart` counts (`UPSTREAM_PAGE_START`). */
  pageStartMode: PageStartMode;
  /**
   * How the upstream's `matches` compares (`UPSTREAM_MATCHES`). `find` anchors every pattern sent
   * (`dialect/matches-pattern.ts`); the other modes send patterns as they are.
   */
  matchesMode: MatchesMode;
  /** Charset of answers whose Content-Type names none (`UPSTREAM_ANSWER_CHARSET`). */
  answerCharset: 'utf-8' | 'iso-8859-1' | 'windows-1252';
  /** Charset of the form login body (`UPSTREAM_REQUEST_CHARSET`). */
  requestCharset: 'utf-8' | 'iso-8859-1';
  /** Largest page and id batch the upstream serves (`UPSTREAM_MAX_PAGE_SIZE`). */
  upstreamMaxPageSize: number;
  /** Whether the upstream's `matches` ignores case (`UPSTREAM_MATCHES_CASE`): `insensitive` sends every pattern after `(?-i)`. */
  matchesCase: 'sensitive' | 'insensitive';
  /** Where a save answer carries the saved id (`UPSTREAM_SAVE_ID_AT`). */
  saveIdAt: 'savedObjectId' | 'data._id' | 'data';
  /** What a save naming an existing `_id` does upstream (`UPSTREAM_SAVE_WITH_ID`). */
  saveWithId: 'merges' | 'replaces';
  /** How update takes its fields (`UPSTREAM_UPDATE_FIELDS`). */
  updateFields: 'data' | 'params';
  /** The metadata answer's payload key (`UPSTREAM_METADATA_KEY`); a payload under another key is a dialect mismatch. */
  metadataKey: string;
  /** Connection deadline (`UPSTREAM_CONNECT_TIMEOUT_MS`). */
  connectTimeoutMillis: number;
  /** Deadline for the response headers (`UPSTREAM_HEADERS_TIMEOUT_MS`). */
  headersTimeoutMillis: number;
  /** Deadline between body chunks (`UPSTREAM_BODY_TIMEOUT_MS`). */
  bodyTimeoutMillis: number;
  /** Deadline for the whole call (`UPSTREAM_CALL_TIMEOUT_MS`). */
  callTimeoutMillis: number;
  /** Answer bytes held at once, all calls together (`answer-budget.ts`). */
  maxInflightAnswerBytes: number;
  /** Of those, one user's share; logins together get an eighth of it. */
  maxInflightAnswerBytesPerUser: number;
  /** Connections per upstream origin (`UPSTREAM_CONNECTIONS`). */
  connectionsPerOrigin: number;
  /** Case-insensitive pattern of upstream messages that mean "your token is no good". */
  authErrorPattern: RegExp;
  /** Upstream messages that mean "this session may not": `forbidden`. */
  forbiddenErrorPattern: RegExp;
  /** Upstream messages that mean "the caller's input is wrong": `rejected_input`. */
  callerErrorPattern: RegExp;
  /** What the upstream cannot take, refused before sending. */
  requestLimits: RequestLimits;
}

/** Options of {@link UpstreamClient}: where the upstream is, its settings, and the hooks. */
export interface UpstreamClientOptions extends UpstreamUrls, UpstreamClientSettings {
  /** Largest response body accepted, in bytes. Default `UPSTREAM_MAX_RESPONSE_BYTES` (8 MiB, not a setting). */
  maxResponseBytes?: number;
  /** Inject a dispatcher (tests); by default one undici `Pool` per origin. */
  dispatcher?: Dispatcher;
  /** Called after every upstream call, for metrics and request logs. Never receives a secret. */
  onCall?: (event: UpstreamCallEvent) => void;
  /** Called as each HTTP attempt is sent (tracing's CLIENT span); its answer is told how the attempt ended. */
  onAttempt?: ((call: UpstreamAttemptCall) => UpstreamAttempt | undefined) | undefined;
}

/** One HTTP attempt as {@link UpstreamClientOptions.onAttempt} sees it. `path`'s query holds credentials. */
export interface UpstreamAttemptCall {
  method: string;
  origin: string;
  path: string;
}

/** An attempt being traced. */
export interface UpstreamAttempt {
  /** Headers sent with the attempt (`traceparent`, `baggage`), if any. */
  readonly headers: Record<string, string> | undefined;
  /** Told once the answer is read and checked: its HTTP status if one came, the error if the attempt failed. */
  end(status: number | undefined, error: unknown): void;
}

/** What {@link UpstreamClientOptions.onCall} receives. */
export interface UpstreamCallEvent {
  operation: WireOperation;
  durationMillis: number;
  /** `ok`, or the `UpstreamError` kind. */
  outcome: string;
  /** A failure's `UpstreamError.detail` (`connection refused`, …: text the gateway wrote, no secret). */
  detail?: string | undefined;
}

/**
 * The read handle: what resolvers read through (the request's loaders, over coalescing). Every method
 * throws only `UpstreamError`.
 */
export interface UpstreamReads {
  getMetadata(credentials: UpstreamCredentials, objectId: string, category: string): Promise<unknown>;
  /** getObject: the first matching record, or `null`. */
  getObject(
    credentials: UpstreamCredentials,
    objectName: string,
    criteria: Criterion[],
  ): Promise<UpstreamRecord | null>;
  /** getAll: one upstream page. `pageIndex` is zero-based; the client converts it to `pageStartMode`. */
  getAll(
    credentials: UpstreamCredentials,
    objectName: string,
    criteria: Criterion[],
    pageSize: number,
    pageIndex: number,
  ): Promise<ReadPage>;
}

/**
 * Which share of the bulkhead a login's call takes: every login of an unknown client together holds one
 * session's share, and every login of a known device (a valid device token of the account) another, so a
 * flood of unknown logins never keeps a known device out (`resilience.ts`).
 */
export type LoginCallShare = 'known' | 'unknown';

/**
 * The write handle: writes and logins, never retried, shared or cached. A different type from
 * {@link UpstreamReads}, so that a read cannot take the uncached path by mistake. Throws only `UpstreamError`.
 */
export interface UpstreamWrites {
  /** `share`: `known` when the client proved a past login to the account (the bulkhead's known-logins share). */
  loginJson(username: string, password: string, share?: LoginCallShare): Promise<JsonLoginResult>;
  loginForm(username: string, password: string, share?: LoginCallShare): Promise<FormLoginResult>;
  /**
   * save: never retried, deduplicated or cached. A success without an id where `saveIdAt` says is
   * `dialect_mismatch` marked `applied` (the object exists), never `outcome_unknown`.
   */
  save(
    credentials: UpstreamCredentials,
    objectName: string,
    data: Record<string, unknown>,
  ): Promise<SaveResult>;
  /**
   * update (a GET upstream, but a write): never retried, deduplicated or cached. The fields travel as
   * `updateFields` says; an `updatedFields` that contradicts them is `dialect_mismatch` marked `applied`
   * (`dialect/writes/updated-fields.ts`). One that names none of them is answered as it came: only a read tells.
   */
  update(
    credentials: UpstreamCredentials,
    objectName: string,
    id: string,
    data: Record<string, unknown>,
    /** Awaited after the request passed its checks, before it is sent; what it throws is the update's. */
    beforeSend?: () => Promise<void>,
  ): Promise<UpdateResult>;
  /**
   * Whether text the upstream answered may have lost characters to `?`: it answers in a single-byte charset
   * and was not heard writing text beyond it as `\u` escapes. Such text is never written back unasked.
   */
  mayAnswerLossyText?(): boolean;
}

/** The upstream service, typed: both handles and the connection pools behind them. */
export interface UpstreamClient extends UpstreamReads, UpstreamWrites {
  /** Closes the connection pools. */
  close(): Promise<void>;
}
