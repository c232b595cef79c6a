/**
 * The one list of upstream operations. Every wrapper (resilience, tracing, coalescing, the test recording
 * client) and the choice of base address are built from it, so a new operation is one entry here plus its
 * wire function in `client/client.ts`; the types below fail to compile until both exist.
 */
import type { UpstreamClient, UpstreamReads, UpstreamUrls } from './client/types.ts';
import type { WireOperation } from './client/wire.ts';

/** A method of the client that calls the upstream (every method but `close` and what the client knows of text). */
export type OperationMethod = Exclude<keyof UpstreamClient, 'close' | 'mayAnswerLossyText'>;

/**
 * What the operation is, for the wrappers: a `read` is retried, coalesced and counted against its
 * user's share; a `write` is sent once, never shared, and counted against its user's share; a `login` is
 * sent once, has no user yet, and all logins together are one source for the breaker.
 */
export type OperationAccess = 'read' | 'write' | 'login';

/** One upstream operation. */
export interface UpstreamOperation {
  /** The client's method. */
  method: OperationMethod;
  /** The name in metrics, logs, spans and errors. */
  wire: WireOperation;
  /** Which configured base address it is sent to (one breaker and one connection pool per origin). */
  base: keyof UpstreamUrls;
  access: OperationAccess;
  /** The argument holding the number of records asked for (a span's batch size); `1` when absent. */
  batchSizeArgument?: number;
}

/** Every operation, keyed by the client's method: a method without an entry does not compile. */
export const UPSTREAM_OPERATIONS = {
  loginJson: { method: 'loginJson', wire: 'loginJson', base: 'apiUrl', access: 'login' },
  loginForm: { method: 'loginForm', wire: 'loginForm', base: 'baseUrl', access: 'login' },
  getMetadata: { method: 'getMetadata', wire: 'metadata', base: 'studioUrl', access: 'read' },
  getObject: { method: 'getObject', wire: 'getObject', base: 'studioUrl', access: 'read' },
  // A batch of ids asks for one page of as many records as ids (`batch-by-id.ts`): `pageSize`.
  getAll: { method: 'getAll', wire: 'getAll', base: 'studioUrl', access: 'read', batchSizeArgument: 3 },
  save: { method: 'save', wire: 'save', base: 'serverUrl', access: 'write' },
  update: { method: 'update', wire: 'update', base: 'serverUrl', access: 'write' },
} as const satisfies { [M in OperationMethod]: UpstreamOperation & { method: M } };

/** The entries in one array, for wrappers that go through all of them. */
export const OPERATION_LIST: readonly UpstreamOperation[] = Object.values(UPSTREAM_OPERATIONS);

/** The methods of the read handle: the entries whose access is `read`. */
export type ReadMethod = keyof UpstreamReads;

/** The read entries. */
export const READ_OPERATIONS: readonly UpstreamOperation[] = OPERATION_LIST.filter(
  (operation) => operation.access === 'read',
);

/** Each wire name's entry. */
export const OPERATION_BY_WIRE = Object.fromEntries(
  OPERATION_LIST.map((operation) => [operation.wire, operation]),
) as Record<WireOperation, UpstreamOperation>;

/** A method's function, as the wrappers see it: its arguments as an array, any answer. */
export type AnyMethod = (...args: never[]) => Promise<unknown>;

/**
 * How a wrapper runs one call: `call` runs the wrapped method with the call's arguments (as often as the
 * wrapper needs: a retry calls it again); it never throws synchronously, it rejects.
 */
export type OperationWrapper = (
  operation: UpstreamOperation,
  args: readonly unknown[],
  call: () => Promise<unknown>,
) => Promise<unknown>;

/**
 * Builds, for each of `operations`, a method that runs `wrap` around `target`'s method of the same name.
 * The answer has the methods of those entries, typed as `target`'s.
 */
export function wrapOperations<T extends Partial<Record<OperationMethod, AnyMethod>>>(
  target: T,
  operations: readonly UpstreamOperation[],
  wrap: OperationWrapper,
): Pick<T, Extract<keyof T, OperationMethod>> {
  const wrapped: Partial<Record<OperationMethod, AnyMethod>> = {};
  for (const operation of operations) {
    const method = target[operation.method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (method === undefined) throw new TypeError(`the client has no ${operation.method}`);
    wrapped[operation.method] = (...args: unknown[]) =>
      wrap(operation, args, () => invoke(method, target, args));
  }
  return wrapped as Pick<T, Extract<keyof T, OperationMethod>>;
}

/**
 * Calls `method`; a synchronous throw comes back as a rejection, so that a wrapper needs no `try` of its
 * own and every failure settles the same way.
 */
function invoke(
  method: (...args: unknown[]) => Promise<unknown>,
  target: unknown,
  args: unknown[],
): Promise<unknown> {
  try {
    return method.apply(target, args);
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as it came
    return Promise.reject(error);
  }
}

/** The origin of each operation, from the configured base addresses (one breaker per origin). */
export function originsOf(urls: UpstreamUrls): Record<WireOperation, string> {
  return Object.fromEntries(
    OPERATION_LIST.map((operation) => [operation.wire, new URL(urls[operation.base]).origin]),
  ) as Record<WireOperation, string>;
}

/**
 * The name of each operation's breaker: the bases (`api`, `base`, `studio`, `server`) whose addresses share
 * its origin, joined with `+` (`studio`, or `api+base+server+studio` when one host serves all). A breaker is
 * still one per origin, but it is named after settings, never after the address: its name reaches
 * `/readyz` and `/metrics`, which anyone who can reach the port may read.
 */
export function breakerNamesOf(urls: UpstreamUrls): Record<WireOperation, string> {
  const origins = originsOf(urls);
  const bases = new Map<string, Set<string>>();
  for (const operation of OPERATION_LIST) {
    const origin = origins[operation.wire];
    const names = bases.get(origin) ?? new Set<string>();
    names.add(operation.base.replace(/Url$/, ''));
    bases.set(origin, names);
  }
  return Object.fromEntries(
    OPERATION_LIST.map((operation) => [
      operation.wire,
      [...(bases.get(origins[operation.wire]) ?? [])].sort().join('+'),
    ]),
  ) as Record<WireOperation, string>;
}
