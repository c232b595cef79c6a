/**
 * A fake {@link UpstreamClient} over in-memory records that records every call, the way DataLoader's own
 * tests record `[loader, loadCalls]`: tests assert on the exact upstream calls a behaviour causes.
 *
 * `matches` is evaluated like Java's `String.matches` (full-string regex, criteria ANDed, dotted paths
 * walk nested objects), with JavaScript's strict `u`-flag parser so a sloppy escape fails loudly.
 */
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import type {
  Criterion,
  MatchesMode,
  ReadPage,
  UpstreamClient,
  UpstreamCredentials,
  UpstreamRecord,
} from '../../src/upstream/client/types.ts';
import {
  OPERATION_LIST,
  wrapOperations,
  type OperationMethod,
  type UpstreamOperation,
} from '../../src/upstream/operations.ts';

/** Operation names, as the client interface spells them. */
export type Operation = OperationMethod;

/** One recorded call: the operation and its arguments after the credentials. */
export type RecordedCall = [operation: Operation, args: unknown[]];

/** Settings of {@link createRecordingClient}. */
export interface RecordingClientOptions {
  /** Stored records per objectName. Copied: saves and updates do not touch the caller's arrays. */
  records?: Record<string, UpstreamRecord[]>;
  /** How `matches` compares. Default `regex`. */
  matchesMode?: MatchesMode;
  /** Runs before a call is answered: await to delay it, throw to fail it. */
  intercept?: (call: RecordedCall) => void | Promise<void>;
  /** Rewrites every getAll answer (reorder, add strangers, inflate totalCount…). */
  reshapePage?: (page: ReadPage, call: RecordedCall) => ReadPage;
}

/** The fake client plus what it saw. */
export interface RecordingClient extends UpstreamClient {
  /** Every call in the order made. */
  readonly calls: RecordedCall[];
  /** The credentials of each call in {@link calls} (`undefined` for logins). */
  readonly credentialsOfCalls: (UpstreamCredentials | undefined)[];
  /** Calls started and not yet settled. */
  readonly inFlight: number;
  /** The most calls ever in flight at once. */
  readonly maxInFlight: number;
}

/** A promise with its resolve and reject exposed, to hold calls open in tests. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

/** Creates a {@link Deferred}. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function fieldText(record: UpstreamRecord, path: string): string | undefined {
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function compile(operation: string, criterion: Criterion, mode: MatchesMode): (text: string) => boolean {
  if (criterion.operator !== 'matches') {
    throw new UpstreamError('service', 'unknown operator', {
      operation,
      upstreamMessage: 'unknown operator',
    });
  }
  if (mode === 'exact') return (text) => text === criterion.value;
  try {
    const pattern = new RegExp(`^(?:${criterion.value})$`, 'u');
    return (text) => pattern.test(text);
  } catch (cause) {
    throw new UpstreamError('service', 'invalid pattern', {
      operation,
      upstreamMessage: 'invalid pattern',
      cause,
    });
  }
}

/** Creates a recording fake over `options.records`. */
export function createRecordingClient(options: RecordingClientOptions = {}): RecordingClient {
  const mode = options.matchesMode ?? 'regex';
  const store = new Map<string, UpstreamRecord[]>(
    Object.entries(options.records ?? {}).map(([name, list]) => [name, list.map((r) => ({ ...r }))]),
  );
  const calls: RecordedCall[] = [];
  const credentialsOfCalls: (UpstreamCredentials | undefined)[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let nextId = 1;

  // Every operation of the list is recorded the same way: its arguments after the credentials (all of a login's).
  async function record(
    operation: UpstreamOperation,
    args: readonly unknown[],
    answer: () => Promise<unknown>,
  ): Promise<unknown> {
    const login = operation.access === 'login';
    calls.push([operation.method, login ? [...args] : args.slice(1)]);
    credentialsOfCalls.push(login ? undefined : (args[0] as UpstreamCredentials));
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const call = calls[calls.length - 1];
      if (call !== undefined) await options.intercept?.(call);
      return await answer();
    } finally {
      inFlight -= 1;
    }
  }

  function select(operation: string, objectName: string, criteria: Criterion[]): UpstreamRecord[] {
    const tests = criteria.map((c) => ({ path: c.fieldName, test: compile(operation, c, mode) }));
    return (store.get(objectName) ?? []).filter((r) =>
      tests.every(({ path, test }) => {
        const text = fieldText(r, path);
        return text !== undefined && test(text);
      }),
    );
  }

  // The fake answers at once; `async` keeps a throw a rejection, as the real client's.
  /* eslint-disable @typescript-eslint/require-await */
  const answers: Omit<UpstreamClient, 'close'> = {
    loginJson: async (username) => ({ token: `token-${username}` }),
    loginForm: async (username) => ({
      userId: `user-${username}`,
      username,
      token: `token-${username}`,
      message: undefined,
    }),
    getMetadata: async (_credentials, objectId, category) => ({ objectId, category }),
    getObject: async (_credentials, objectName, criteria) =>
      select('getObject', objectName, criteria)[0] ?? null,
    async getAll(_credentials, objectName, criteria, pageSize, pageIndex) {
      const matched = select('getAll', objectName, criteria);
      const start = pageIndex * pageSize;
      const page = { records: matched.slice(start, start + pageSize), totalCount: matched.length };
      const call: RecordedCall = ['getAll', [objectName, criteria, pageSize, pageIndex]];
      return options.reshapePage ? options.reshapePage(page, call) : page;
    },
    save: async (_credentials, objectName, data) => {
      const list = store.get(objectName) ?? [];
      store.set(objectName, list);
      const existing = typeof data._id === 'string' ? list.find((r) => r._id === data._id) : undefined;
      if (existing !== undefined) {
        Object.assign(existing, data);
        return { savedObjectId: existing._id, message: 'updated' };
      }
      const created = { ...data, _id: `${objectName}-${nextId++}` };
      list.push(created);
      return { savedObjectId: created._id, message: 'created' };
    },
    update: async (_credentials, objectName, id, data) => {
      const existing = store.get(objectName)?.find((r) => r._id === id);
      if (existing === undefined) {
        throw new UpstreamError('not_found', 'no such object', { operation: 'update' });
      }
      Object.assign(existing, data);
      return { savedObjectId: id, message: 'updated', updatedFields: data };
    },
  };
  /* eslint-enable @typescript-eslint/require-await */

  return {
    ...wrapOperations(answers, OPERATION_LIST, record),
    get calls() {
      return calls;
    },
    get credentialsOfCalls() {
      return credentialsOfCalls;
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    close: () => Promise.resolve(),
  };
}
