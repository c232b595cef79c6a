import type { MatchesMode, WireOperation } from '../src/upstream/client/wire.ts';
import type { EmulatorUser } from './identity/demo-users.ts';
import type { PageStartMode } from './operations/paging.ts';
import type { WrapperStyle } from './http/reply.ts';
import type { EmulatorCharset } from './http/charset.ts';

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
  /** Larger `pageSize` values are served as this many records. Default 1000. */
  maxPageSize?: number;
  /**
   * Error messages reworded as another upstream words them: the emulator's message (`invalid token: log in
   * again`, `unknown object name`, …) → the text to send instead. Default: none.
   */
  errorMessages?: Readonly<Record<string, string>>;
  /** Whether the form login answers a token; the contract allows it to leave it out. Default `true`. */
  formLoginToken?: boolean;
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
  resetStats(): void;
  /** Replaces the fault injection (`undefined` or `{}` clears it). Throws on an invalid setting. */
  setFaults(faults: FaultOptions | undefined): void;
  /** Stops listening, drops open connections (hung ones included) and waits for pending writes. */
  close(): Promise<void>;
}
