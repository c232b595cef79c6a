/**
 * The one list of upstream operations (`src/upstream/operations.ts`): every operation of the client has
 * exactly one entry, and every wrapper built from the list covers all of its entries, so that a new
 * operation cannot be forgotten by one of them.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { withTracing } from '../../src/observability/tracing/traced-client.ts';
import type { GatewayTracing, RequestTrace } from '../../src/observability/tracing/tracing.ts';
import { withCoalescing } from '../../src/upstream/batching/coalesce.ts';
import { createUpstreamClient } from '../../src/upstream/client/client.ts';
import type { UpstreamClient, UpstreamCredentials } from '../../src/upstream/client/types.ts';
import {
  OPERATION_BY_WIRE,
  OPERATION_LIST,
  READ_OPERATIONS,
  UPSTREAM_OPERATIONS,
  breakerNamesOf,
  originsOf,
  type OperationMethod,
} from '../../src/upstream/operations.ts';
import { withResilience } from '../../src/upstream/resilience/resilience.ts';
import { createRetryBudget } from '../../src/upstream/resilience/retry-budget.ts';
import { createRecordingClient } from '../support/recording-client.ts';
import { clientSettingsOf } from '../../src/upstream/client/client-settings.ts';

/** The client settings a user gets by default. */
const DEFAULT_CLIENT_SETTINGS = clientSettingsOf(loadConfig({}));

const URLS = {
  apiUrl: 'http://api.test:1/v',
  baseUrl: 'http://base.test:2',
  studioUrl: 'http://studio.test:3',
  serverUrl: 'http://server.test:4/x',
};
const CREDENTIALS: UpstreamCredentials = { username: 'u', apiToken: 't', applicationCode: 'a' };

/** Arguments that each operation accepts, to call every method of a wrapper the same way. */
const ARGUMENTS: Record<OperationMethod, unknown[]> = {
  loginJson: ['u', 'p'],
  loginForm: ['u', 'p'],
  getMetadata: [CREDENTIALS, 'm1', 'none'],
  getObject: [CREDENTIALS, 'X', []],
  getAll: [CREDENTIALS, 'X', [], 7, 0],
  save: [CREDENTIALS, 'X', { name: 'n' }],
  update: [CREDENTIALS, 'X', 'X-1', { name: 'n' }],
};

function callEvery(client: Partial<Record<OperationMethod, unknown>>, methods: readonly OperationMethod[]) {
  return Promise.allSettled(
    methods.map((method) =>
      (client[method] as (...args: unknown[]) => Promise<unknown>)(...ARGUMENTS[method]),
    ),
  );
}

function resilient(client: UpstreamClient) {
  return withResilience(client, {
    ...loadConfig({}).resilience,
    originOf: () => 'http://one',
    retryBudget: createRetryBudget({ ratio: 0.2, minRetriesPerWindow: 100 }),
  });
}

const ALL_METHODS = OPERATION_LIST.map((operation) => operation.method);

describe('the list of upstream operations', () => {
  it('should hold exactly one entry per method of the client, and nothing else', async () => {
    const client = createUpstreamClient({ ...DEFAULT_CLIENT_SETTINGS, ...URLS });
    // Besides the operations: closing its pools, the answer bytes it holds (the saturation metrics), and
    // whether text it read may have lost characters (what a save with _id may write back).
    const others = ['close', 'answerBytesHeld', 'mayAnswerLossyText'];
    const methods = Object.keys(client).filter((key) => !others.includes(key));
    expect([...ALL_METHODS].sort()).toEqual(methods.sort());
    expect(new Set(ALL_METHODS).size).toBe(ALL_METHODS.length);
    await client.close();
  });

  it('should name every operation once on the wire, and find each entry by that name', () => {
    const wires = OPERATION_LIST.map((operation) => operation.wire);
    expect(new Set(wires).size).toBe(wires.length);
    for (const operation of OPERATION_LIST) expect(OPERATION_BY_WIRE[operation.wire]).toBe(operation);
    expect(UPSTREAM_OPERATIONS.getMetadata.wire).toBe('metadata');
  });

  it('should name each breaker after the bases sharing its origin, never after an address', () => {
    expect(breakerNamesOf(URLS)).toEqual({
      loginJson: 'api',
      loginForm: 'base',
      metadata: 'studio',
      getObject: 'studio',
      getAll: 'studio',
      save: 'server',
      update: 'server',
    });
    const one = 'http://upstream.test:8080';
    const shared = breakerNamesOf({ apiUrl: one, baseUrl: `${one}/b`, studioUrl: one, serverUrl: one });
    expect(new Set(Object.values(shared))).toEqual(new Set(['api+base+server+studio']));
  });

  it('should send reads to the studio, writes to the server and each login to its own base', () => {
    const origins = originsOf(URLS);
    expect(origins).toEqual({
      loginJson: 'http://api.test:1',
      loginForm: 'http://base.test:2',
      metadata: 'http://studio.test:3',
      getObject: 'http://studio.test:3',
      getAll: 'http://studio.test:3',
      save: 'http://server.test:4',
      update: 'http://server.test:4',
    });
  });
});

describe('wrappers built from the list', () => {
  it('should pass every operation of the resilience layer to the client, once, with its arguments', async () => {
    const client = createRecordingClient({ records: { X: [{ _id: 'X-1' }] } });
    const results = await callEvery(resilient(client), ALL_METHODS);
    expect(results.map((result) => result.status)).toEqual(ALL_METHODS.map(() => 'fulfilled'));
    expect(client.calls.map(([method]) => method)).toEqual(ALL_METHODS);
    expect(client.calls[ALL_METHODS.indexOf('getAll')]).toEqual(['getAll', ['X', [], 7, 0]]);
  });

  it('should give every operation its span when tracing, named by the wire name, sized by the batch', async () => {
    const spans: [unknown, string, number][] = [];
    const request = { ids: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 } };
    const tracing = {
      upstreamCall: (parent: unknown, operation: string, size: number, call: () => Promise<unknown>) => {
        spans.push([parent, operation, size]);
        return call();
      },
      countRetry: () => undefined,
    } as unknown as GatewayTracing;
    const client = createRecordingClient({ records: { X: [{ _id: 'X-1' }] } });
    await callEvery(
      withTracing(resilient(client), tracing, () => request as unknown as RequestTrace),
      ALL_METHODS,
    );
    // Each under the trace of the request that asked, passed explicitly.
    expect(spans).toEqual(
      OPERATION_LIST.map((operation) => [request, operation.wire, operation.method === 'getAll' ? 7 : 1]),
    );
    expect(client.calls).toHaveLength(ALL_METHODS.length);
  });

  it('should coalesce every read of the list and offer no write or login', async () => {
    const client = createRecordingClient();
    const coalescing = withCoalescing(client);
    const reads = READ_OPERATIONS.map((operation) => operation.method);
    expect(Object.keys(coalescing).sort()).toEqual([...reads, 'inflightCount'].sort());
    // Two identical calls of each read: one upstream call each.
    await Promise.all([callEvery(coalescing, reads), callEvery(coalescing, reads)]);
    expect(client.calls.map(([method]) => method)).toEqual(reads);
  });

  it('should record every operation in the recording client', async () => {
    const client = createRecordingClient({ records: { X: [{ _id: 'X-1' }] } });
    await callEvery(client, ALL_METHODS);
    expect(client.calls.map(([method]) => method)).toEqual(ALL_METHODS);
    expect(client.credentialsOfCalls.map((credentials) => credentials !== undefined)).toEqual(
      OPERATION_LIST.map((operation) => operation.access !== 'login'),
    );
  });
});
