import type { MatchesMode, WireOperation } from '../src/upstream/client/wire.ts';
import type { EmulatorUser } from './identity/demo-users.ts';
import type { PageStartMode, PageZero, TotalCountForm } from './operations/paging.ts';
import type { WrapperStyle } from './http/reply.ts';
import type { SaveIdAt, SaveWithId, UpdateFields } from './operations/write-dialect.ts';
import type { EmulatorCharset } from './http/charset.ts';
import type { ReadQuirks } from './operations/read-quirks.ts';

/** The ways the emulator can misbehave on purpose, for resilience tests. */
export const FAULT_MODES = [
  'error500',
  'hang',
  'reset',
  'garbage',
  'oversized',
  'wrongCallback',
  'truncated',
  'html',
] as const;

/** One of {@link FAULT_MODES}. */
export type FaultMode = (typeof FAULT_MODES)[number];

/** The seven operations, in the order counters list them. */
export const WIRE_OPERATIONS = [
  'loginJson',
  'loginForm',
  'metadata',
  'getObject',
  'getAll',
  'save',
  'update',
] as const satisfies readonly WireOperation[];

/** Fault injection: which calls misbehave, and how. */
export interface FaultOptions {
  /** Apply `mode` to every Nth matching call (1 = every call). Default 0/undefined: never. */
  every?: number;
  /** What goes wrong. Required when `every` is above 0. */
  mode?: FaultMode;
  /** Only these operations count and misbehave. Default: all seven. */
  operations?: WireOperation[];
}

/** Options of `startEmulator`. */
export interface EmulatorOptions {
  /** TCP port. Default 0: chosen by the OS (the command uses `EMULATOR_PORT`, default 4010). */
  port?: number;
  /** Interface to listen on. Default `'127.0.0.1'`. */
  host?: string;
  /** JSONP wrapper: `plain` is `cb({...});`, `guard` is `/**\/ typeof cb === 'function' && cb({...});`. Default `plain`. */
  wrapper?: WrapperStyle;
  /**
   * How `matches` compares (docs/design.md, `UPSTREAM_MATCHES`): the whole value (`regex`), any part of it
   * (`find`, as `Matcher.find()` or MongoDB's `$regex`), or plain equality (`exact`). Default `regex`.
   */
  matches?: MatchesMode;
  /**
   * Whether `matches` ignores case (`UPSTREAM_MATCHES_CASE`): `insensitive` compiles patterns as
   * `Pattern.compile(p, CASE_INSENSITIVE)` does (US-ASCII letters; an inline `(?-i)` turns it off) and,
   * with `matches: 'exact'`, compares as `equalsIgnoreCase`. Default `sensitive`.
   */
  matchesCase?: 'sensitive' | 'insensitive';
  /** The key of the metadata answer that holds its payload (`UPSTREAM_METADATA_KEY`). Default `data`. */
  metadataKey?: string;
  /** What `pageStart` counts (docs/design.md, `UPSTREAM_PAGE_START`). Default `page0`. */
  pageStart?: PageStartMode;
  /**
   * Longest request line plus headers, in bytes, as a servlet container's `maxHttpHeaderSize`: a longer
   * request is answered 414 before it reaches an operation (and is not counted). Default: Node's own limit.
   */
  maxUrlBytes?: number;
  /**
   * The charset it speaks, as a servlet (docs/upstream-contract.md, `answer_charset`, `request_charset`):
   * answers encoded in it and labelled so (`?` for what ISO-8859-1 lacks, as Java's encoder writes), bodies
   * that declare no charset read in it. Default `utf-8`.
   */
  charset?: EmulatorCharset;
  /**
   * Larger `pageSize` values are served as this many records, id lookups (`_id` alternations) included,
   * as a real upstream caps whatever the filter; `totalCount` still counts every match. Default 1000.
   */
  maxPageSize?: number;
  /**
   * With `pageStart: 'page1'`, what `pageStart=0` answers: `refuse` (a `status: error`) or `empty` (an empty
   * page with the true `totalCount`, as a one-based service that computes `(pageStart - 1) * pageSize` and
   * finds nothing before the first record). Default `refuse`.
   */
  pageZero?: PageZero;
  /**
   * How getAll writes `totalCount`: a JSON `number`, a `string` (`"31"`), or a number left out when nothing
   * matches (`omit-when-empty`). Default `number`.
   */
  totalCount?: TotalCountForm;
  /**
   * Error messages reworded as another upstream words them: the emulator's message (`invalid token: log in
   * again`, `unknown object name`, …) → the text to send instead, where `{objectName}` stands for the request's
   * `objectName` query parameter. Default: none.
   */
  errorMessages?: Readonly<Record<string, string>>;
  /**
   * Where a save answer carries the saved id (`UPSTREAM_SAVE_ID_AT`): `savedObjectId` as the document
   * says, `data._id` (the saved object under `data`, as a controller returning the saved entity), or `data`
   * (the bare id). Default `savedObjectId`.
   */
  saveIdAt?: SaveIdAt;
  /**
   * What a save naming an existing `_id` does (`UPSTREAM_SAVE_WITH_ID`): `merges` the fields sent into the
   * object, or `replaces` it with them (as `MongoTemplate.save`). Default `merges`.
   */
  saveWithId?: SaveWithId;
  /**
   * How update takes its fields (`UPSTREAM_UPDATE_FIELDS`): `data`, one JSON query parameter, or `params`,
   * as a servlet reading `request.getParameterMap()`: every parameter besides its own becomes a text field
   * (so `data={…}` becomes a field `data`). Default `data`.
   */
  updateFields?: UpdateFields;
  /**
   * Reads lag writes by this many milliseconds, as reads from a replica behind a load balancer: right after a
   * write, reads show the object as before it (a new object not at all). Writes see the current store.
   * Default 0.
   */
  readLagMillis?: number;
  /**
   * Fields the upstream's entity class lacks: a save or update stores every other field and drops these
   * without a word (Jackson ignoring unknown properties). Default none.
   */
  droppedFields?: readonly string[];
  /**
   * Whether numbers are stored as whole numbers, cut toward zero (`2.7` → `2`), as an entity with `int` or
   * `long` fields does. Default `false`.
   */
  truncatesNumbers?: boolean;
  /**
   * Whether answers write every character beyond ASCII as a JSON `\u` escape (Jackson's `ESCAPE_NON_ASCII`),
   * so that an ISO-8859-1 `charset` still gives back any text. Default `false`.
   */
  escapesNonAscii?: boolean;
  /** Whether the form login answers a token; the contract allows it to leave it out. Default `true`. */
  formLoginToken?: boolean;
  /**
   * How the form login hands out the session: `token` in its answer (as `formLoginToken` says), or `cookie`, as
   * a JSP page on a servlet's `HttpSession` does: no token, a `Set-Cookie: JSESSIONID=…; Path=/; HttpOnly`, and
   * every read and write accepts that cookie as the session whatever its `apiToken`, until the session
   * expires (`tokenTtlSeconds`). Default `token`.
   */
  formLoginSession?: 'token' | 'cookie';
  /**
   * Read-side dialects of upstreams written apart from this project (`operations/read-quirks.ts`): `matches`
   * wrapped as `"^"+value+"$"` and found, only the last criterion per field, `organizationCode` ignored on
   * reads, getObject's one object for an array, a dead session as a redirect, a login page or a text, locked
   * accounts, a written record moving to the end of the natural order. Default: none.
   */
  readQuirks?: ReadQuirks;
  /** Delay added before every operation's answer, in milliseconds. Default 0. */
  latencyMillis?: number;
  /** Lifetime of issued upstream tokens, in seconds. Default 28_800. */
  tokenTtlSeconds?: number;
  /**
   * Object names served besides the three demo types (`EMULATOR_OBJECT_TYPES` and the `@dataObject` names
   * of `schema/objects/`), empty until saved to. Any other name is refused as `unknown object name`.
   */
  objectTypes?: readonly string[];
  /** Durable store: a JSON file replaced atomically on every write, seeded on first start. Default: in memory. */
  dataFile?: string;
  /** Fault injection. Default: none. */
  faults?: FaultOptions;
  /** Clock in milliseconds since the epoch, for tests of token expiry. Default `Date.now`. */
  now?: () => number;
  /** Users besides the fixed ones (`EMULATOR_USERS`), e.g. the bench's one user per connection. Default none. */
  users?: readonly EmulatorUser[];
}

/** A started emulator. */
export interface RunningEmulator {
  /** Base address of all four upstream addresses, e.g. `http://127.0.0.1:4010`. */
  url: string;
  port: number;
  /** Calls per operation since start or the last reset (faulted calls included). */
  stats(): Record<WireOperation, number>;
  /** Writes applied since start (saves and updates that changed the store), by object name. */
  writesByObjectName(): Record<string, number>;
  resetStats(): void;
  /** Replaces the fault injection (`undefined` or `{}` clears it). Throws on an invalid setting. */
  setFaults(faults: FaultOptions | undefined): void;
  /** Stops listening, drops open connections (hung ones included) and waits for pending writes. */
  close(): Promise<void>;
}
