/**
 * The public surface of the upstream client: what resolvers and loaders may call. Framework-free: no
 * GraphQL type appears here.
 */
import type { Dispatcher } from 'undici';
import type { RequestLimits } from './request-checks.ts';

/** One filter condition; `operator` defaults to `matches` upstream. */
export interface Criterion {
  fieldName: string;
  operator: string;
  value: string;
}

/** An object as stored upstream: `_id` plus the fields of its type. */
export interface UpstreamRecord {
  _id: string;
  [field: string]: unknown;
}

/** Who is calling: what a session carries. `apiToken` is a secret and never logged. */
export interface UpstreamCredentials {
  username: string;
  apiToken: string;
  applicationCode: string;
  organizationCode?: string | undefined;
}

/** Result of the JSON login (`/v1/user/login`). */
export interface JsonLoginResult {
  token: string;
}

/** Result of the form login (`/app/login.jsp`); `token` is optional in the document. */
export interface FormLoginResult {
  userId: string;
  username: string;
  token: string | undefined;
  message: string | undefined;
}

/** A page of getAll. */
export interface ReadPage {
  records: UpstreamRecord[];
  totalCount: number;
}

/** Result of save. */
export interface SaveResult {
  savedObjectId: string;
  message: string;
}

/** Result of update. */
export interface UpdateResult {
  savedObjectId: string;
  message: string;
  updatedFields: Record<string, unknown>;
}

/** How the upstream counts `pageStart` (docs/design.md): zero-based page, one-based page, or record offset. */
export type PageStartMode = 'page0' | 'page1' | 'offset';

/** How the upstream's `matches` operator compares (docs/design.md): full-string regex, or plain equality. */
export type MatchesMode = 'regex' | 'exact';

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

/** Settings of {@link UpstreamClient}. Every deadline is in milliseconds. */
export interface UpstreamClientOptions extends UpstreamUrls {
  /** How `pageStart` counts. Default `page0`. */
  pageStartMode?: PageStartMode;
  /** Connection deadline. Default `2_000`. */
  connectTimeoutMillis?: number;
  /** Deadline for the response headers. Default `5_000`. */
  headersTimeoutMillis?: number;
  /** Deadline between body chunks. Default `5_000`. */
  bodyTimeoutMillis?: number;
  /** Deadline for the whole call. Default `10_000`. */
  callTimeoutMillis?: number;
  /** Largest response body accepted, in bytes. Default `8 * 1024 * 1024`. */
  maxResponseBytes?: number;
  /** Connections per upstream origin. Default `32`. */
  connectionsPerOrigin?: number;
  /** Attempts after the first for reads that failed with a retryable kind. Default `2`; writes never retry. */
  readRetries?: number;
  /** Case-insensitive pattern of upstream messages that mean "your token is no good". */
  authErrorPattern?: RegExp;
  /** Upstream messages that mean "this session may not": `forbidden`. Default in `parse-answer.ts`. */
  forbiddenErrorPattern?: RegExp | undefined;
  /** Upstream messages that mean "the caller's input is wrong": `rejected_input`. Default in `parse-answer.ts`. */
  callerErrorPattern?: RegExp | undefined;
  /** What the upstream cannot take, refused before sending. Defaults in `request-checks.ts`. */
  requestLimits?: Partial<RequestLimits> | undefined;
  /** Inject a dispatcher (tests); by default one undici `Pool` per origin. */
  dispatcher?: Dispatcher;
  /** Called after every upstream call, for metrics and request logs. Never receives a secret. */
  onCall?: (event: UpstreamCallEvent) => void;
}

/** What {@link UpstreamClientOptions.onCall} receives. */
export interface UpstreamCallEvent {
  operation: 'loginJson' | 'loginForm' | 'metadata' | 'getObject' | 'getAll' | 'save' | 'update';
  durationMillis: number;
  /** `ok`, or the `UpstreamError` kind. */
  outcome: string;
  attempt: number;
}

/** The upstream service, typed. Every method throws only `UpstreamError`. */
export interface UpstreamClient {
  loginJson(username: string, password: string): Promise<JsonLoginResult>;
  loginForm(username: string, password: string): Promise<FormLoginResult>;
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
  /** save: never retried, deduplicated or cached. */
  save(
    credentials: UpstreamCredentials,
    objectName: string,
    data: Record<string, unknown>,
  ): Promise<SaveResult>;
  /** update (a GET upstream, but a write): never retried, deduplicated or cached. */
  update(
    credentials: UpstreamCredentials,
    objectName: string,
    id: string,
    data: Record<string, unknown>,
  ): Promise<UpdateResult>;
  /** Closes the connection pools. */
  close(): Promise<void>;
}
