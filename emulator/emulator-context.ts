import type { MatchesMode } from '../src/upstream/client/wire.ts';
import type { BodyEncoding } from './http/charset.ts';
import type { PatternCache } from './operations/filter-command.ts';
import type { ObjectStore } from './store/object-store.ts';
import type { PageStartMode, PageZero, TotalCountForm } from './operations/paging.ts';
import type { TokenRegistry } from './identity/token-registry.ts';
import type { UserDirectory } from './identity/user-directory.ts';
import type { WriteDialect } from './operations/write-dialect.ts';
import type { ReadQuirks } from './operations/read-quirks.ts';
import type { LaggingReplica } from './operations/lagging-replica.ts';

/** Everything the operation handlers share: one per running emulator, no globals. */
export interface EmulatorContext {
  store: ObjectStore;
  users: UserDirectory;
  tokens: TokenRegistry;
  patterns: PatternCache;
  matches: MatchesMode;
  /** Whether `matches` ignores case (`Pattern.CASE_INSENSITIVE`, `equalsIgnoreCase` when `exact`). */
  matchesCase: 'sensitive' | 'insensitive';
  /** The key of the metadata answer that holds its payload. */
  metadataKey: string;
  pageStart: PageStartMode;
  /** Larger `pageSize` values are served as this many records. */
  maxPageSize: number;
  /** How save and update speak (`write-dialect.ts`). */
  writes: WriteDialect;
  /** The replica reads lag behind (`readLagMillis`); `undefined` when reads see every write at once. */
  replica?: LaggingReplica | undefined;
  /** What a one-based `pageStart=0` answers. */
  pageZero: PageZero;
  /** How getAll writes `totalCount`. */
  totalCount: TotalCountForm;
  /** Whether the form login answers a token (the contract allows it to leave it out). */
  formLoginToken: boolean;
  /** `cookie`: the form login opens a servlet session (`JSESSIONID`) instead of answering a token. */
  formLoginSession: 'token' | 'cookie';
  /** The servlet sessions the form login opened in the `cookie` dialect, by session id. */
  sessions: TokenRegistry;
  /** Read-side dialects of other upstreams (`read-quirks.ts`); `{}` speaks as the contract says. */
  readQuirks: ReadQuirks;
  /** Clock in milliseconds since the epoch. */
  now: () => number;
  /** A fresh object id. */
  newId: () => string;
  /** Resolves once every change made so far is durable (at once when the store is in memory). */
  persist: () => Promise<void>;
}

/** What a handler gets from the HTTP layer. */
export interface OperationRequest {
  query: URLSearchParams;
  /** The decoded path segment of metadata and update; `undefined` elsewhere. */
  pathId: string | undefined;
  /** The request body of POST operations; `undefined` when it exceeded the size cap. */
  body: string | undefined;
  /** The `JSESSIONID` the request's `Cookie` header names, if any. */
  sessionId: string | undefined;
  /** What the body was read in: its percent-escapes too (`EMULATOR_CHARSET`). Default UTF-8. */
  bodyEncoding?: BodyEncoding | undefined;
}
