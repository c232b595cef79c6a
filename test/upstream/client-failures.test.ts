import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import type { UpstreamErrorKind } from '../../src/errors/upstream-error.ts';
import { withResilience } from '../../src/upstream/resilience/resilience.ts';
import { createRetryBudget } from '../../src/upstream/resilience/retry-budget.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type {
  UpstreamCallEvent,
  UpstreamClient,
  UpstreamClientOptions,
} from '../../src/upstream/client/types.ts';
import { CREDENTIALS, failureOf } from '../support/client-for.ts';
import { useMisbehavingServer } from '../support/misbehaving-fixture.ts';

const misbehaving = useMisbehavingServer();
const { server } = misbehaving;

function client(behaviour: string, options: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  return misbehaving.client(behaviour, options);
}

/**
 * The client of `behaviour` behind the resilience layer, which holds the one retry loop: `readRetries` as
 * given (its default when `undefined`), a retry budget that never runs out.
 */
function retrying(
  behaviour: string,
  readRetries: number | undefined,
  options: Partial<UpstreamClientOptions> = {},
): UpstreamClient {
  return withResilience(client(behaviour, options), {
    ...loadConfig({}).resilience,
    originOf: () => server.url,
    retryBudget: createRetryBudget({ ratio: 0.2, minRetriesPerWindow: 100 }),
    ...(readRetries === undefined ? {} : { readRetries }),
  });
}

type Operation = (client: UpstreamClient) => Promise<unknown>;
const CALLS: Record<string, Operation> = {
  getAll: (c) => c.getAll(CREDENTIALS, 'com.example.Order', [], 20, 0),
  getObject: (c) =>
    c.getObject(CREDENTIALS, 'com.example.Order', [{ fieldName: '_id', operator: 'matches', value: 'x' }]),
  metadata: (c) => c.getMetadata(CREDENTIALS, 'x', 'none'),
  save: (c) => c.save(CREDENTIALS, 'com.example.Order', { total: 1 }),
  update: (c) => c.update(CREDENTIALS, 'com.example.Order', 'r1', { total: 2 }),
  loginJson: (c) => c.loginJson('demo', 'demo-password'),
  loginForm: (c) => c.loginForm('demo', 'demo-password'),
};

const FAILURES: [string, string, Partial<UpstreamClientOptions>, UpstreamErrorKind][] = [
  ['hanging before headers (headers deadline)', 'hang', { headersTimeoutMillis: 200 }, 'timeout'],
  ['hanging before headers (call deadline)', 'hang', { callTimeoutMillis: 300 }, 'timeout'],
  ['dripping slower than the body deadline', 'slow-drip', { bodyTimeoutMillis: 200 }, 'timeout'],
  ['dripping past the call deadline', 'endless-drip', { callTimeoutMillis: 400 }, 'timeout'],
  ['resetting mid-body', 'reset', {}, 'unavailable'],
  ['answering 500', 'status-500', {}, 'unavailable'],
  ['answering 503 with an HTML page', 'status-503-html', {}, 'unavailable'],
  ['answering 200 with an HTML error page', 'html', {}, 'bad_response'],
  ['sending truncated JSONP', 'truncated', {}, 'bad_response'],
  ['streaming past the size cap', 'oversized', { maxResponseBytes: 64 * 1024 }, 'bad_response'],
  [
    'announcing a body over the size cap',
    'oversized-length',
    { maxResponseBytes: 64 * 1024 },
    'bad_response',
  ],
  ['wrapping in another callback', 'wrong-callback', {}, 'bad_response'],
  ['refusing the connection', 'refused', { connectTimeoutMillis: 500 }, 'unavailable'],
];

describe.each(['getAll', 'save'])('%s against a server', (operation) => {
  const call = CALLS[operation]!;

  it.each(FAILURES)('should fail with a typed error when %s', async (_name, behaviour, options, kind) => {
    const error = await failureOf(call(client(behaviour, { callTimeoutMillis: 5_000, ...options })));
    expect(error).toBeInstanceOf(UpstreamError);
    // A write that reached the upstream and lost its answer may have been applied: its outcome is unknown,
    // and the kind of the loss is its detail. Only a refused connection proves nothing was sent.
    if (operation === 'save' && behaviour !== 'refused') {
      expect(error).toMatchObject({ kind: 'outcome_unknown', detail: kind, operation });
    } else {
      expect(error).toMatchObject({ kind, operation });
    }
    // The kind is the failure's own: the call did not wait for its 5 s deadline (that would be `timeout`).
  });
});

describe('client against a misbehaving server', () => {
  it('should report the HTTP status of a non-2xx answer', async () => {
    const error = await failureOf(CALLS.getAll!(client('status-500')));
    expect(error).toMatchObject({ kind: 'unavailable', httpStatus: 500 });
  });

  it('should decode a read answered as bare JSON, whatever the content type', async () => {
    const page = await client('json').getAll(CREDENTIALS, 'com.example.Order', [], 20, 0);
    expect(page).toEqual({ records: [{ _id: 'r1', name: 'one' }], totalCount: 1 });
  });

  it.each(['getAll', 'getObject', 'metadata'])(
    'should make exactly one call for %s: the client itself never retries',
    async (name) => {
      const events: UpstreamCallEvent[] = [];
      await failureOf(CALLS[name]!(client('status-503', { onCall: (event) => events.push(event) })));
      expect(server.hits('status-503')).toBe(1);
      expect(events.map((event) => [event.operation, event.outcome])).toEqual([[name, 'unavailable']]);
    },
  );

  it('should keep answering when the onCall listener throws', async () => {
    const noisy = client('ok', {
      onCall: () => {
        throw new Error('listener bug');
      },
    });
    await expect(noisy.getAll(CREDENTIALS, 'com.example.Order', [], 20, 0)).resolves.toMatchObject({
      totalCount: 1,
    });
  });
});

describe('retries (the resilience layer) against a misbehaving server', () => {
  it.each(['getAll', 'getObject', 'metadata'])(
    'should retry %s twice on unavailable by default',
    async (name) => {
      const events: UpstreamCallEvent[] = [];
      const failing = retrying('status-503', undefined, { onCall: (event) => events.push(event) });
      const error = await failureOf(CALLS[name]!(failing));
      expect(error).toMatchObject({ kind: 'unavailable' });
      expect(server.hits('status-503')).toBe(3);
      expect(events.map((event) => [event.operation, event.outcome])).toEqual([
        [name, 'unavailable'],
        [name, 'unavailable'],
        [name, 'unavailable'],
      ]);
    },
  );

  it.each(['save', 'update', 'loginJson', 'loginForm'])('should never retry %s', async (name) => {
    const events: UpstreamCallEvent[] = [];
    const failing = retrying('status-503', 5, { onCall: (event) => events.push(event) });
    await failureOf(CALLS[name]!(failing));
    expect(server.hits('status-503')).toBe(1);
    expect(events).toHaveLength(1);
  });

  it('should never retry a write that timed out', async () => {
    await failureOf(CALLS.update!(retrying('hang', 5, { headersTimeoutMillis: 200 })));
    expect(server.hits('hang')).toBe(1);
  });

  it('should recover when a retried read succeeds, with a fresh callback per attempt', async () => {
    const events: UpstreamCallEvent[] = [];
    const flaky = retrying('flaky-then-ok', 2, { onCall: (event) => events.push(event) });
    const page = await flaky.getAll(CREDENTIALS, 'com.example.Order', [], 20, 0);
    expect(page.totalCount).toBe(1);
    expect(events.map((event) => event.outcome)).toEqual(['unavailable', 'unavailable', 'ok']);
    expect(new Set(server.requests.map((request) => request.query.get('callback'))).size).toBe(3);
  });

  it('should retry a read that timed out', async () => {
    await failureOf(CALLS.getAll!(retrying('hang', 1, { headersTimeoutMillis: 200 })));
    expect(server.hits('hang')).toBe(2);
  });

  it('should not retry a read that got an undecodable answer', async () => {
    await failureOf(CALLS.getAll!(retrying('html', 2)));
    expect(server.hits('html')).toBe(1);
  });
});
