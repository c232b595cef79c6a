import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { UpstreamErrorKind } from '../../src/errors/upstream-error.ts';
import { toTransportError } from '../../src/upstream/client/transport-error.ts';
import type { UpstreamCallEvent, UpstreamClient } from '../../src/upstream/client/types.ts';
import { CREDENTIALS, failureOf } from '../support/client-for.ts';
import { useMisbehavingServer } from '../support/misbehaving-fixture.ts';

const TOKEN = CREDENTIALS.apiToken;
const PASSWORD = 'pw-SECRET-93d0aa51';

const misbehaving = useMisbehavingServer();
const events: UpstreamCallEvent[] = [];

function client(behaviour: string): UpstreamClient {
  return misbehaving.client(behaviour, {
    callTimeoutMillis: 300,
    maxResponseBytes: 32 * 1024,
    onCall: (event) => events.push(event),
  });
}

/** Every way a secret could leave through an error. */
function renderings(error: unknown): string[] {
  const message = error instanceof Error ? error.message : '';
  return [
    String(error),
    message,
    JSON.stringify(error),
    inspect(error, { depth: 5 }),
    inspect(events, { depth: 5 }),
  ];
}

const CASES: [string, UpstreamErrorKind][] = [
  ['hang', 'timeout'],
  ['endless-drip', 'timeout'],
  ['refused', 'unavailable'],
  ['reset', 'unavailable'],
  ['status-500', 'unavailable'],
  ['html', 'bad_response'],
  ['truncated', 'bad_response'],
  ['oversized', 'bad_response'],
  ['wrong-callback', 'bad_response'],
  ['echo-error/auth', 'unauthenticated'],
  ['echo-error/notfound', 'not_found'],
  ['echo-error/other', 'service'],
];

describe('secrets in errors', () => {
  it.each(CASES)('should keep the apiToken out of a %s failure of update (%s)', async (behaviour, kind) => {
    const error = await failureOf(client(behaviour).update(CREDENTIALS, 'com.example.Order', 'r1', { a: 1 }));
    // Lost answers of a write leave its outcome unknown; the kind of the loss is the detail.
    const lost = behaviour !== 'refused' && ['timeout', 'unavailable', 'bad_response'].includes(kind);
    expect(error).toMatchObject(lost ? { kind: 'outcome_unknown', detail: kind } : { kind });
    for (const text of renderings(error)) expect(text).not.toContain(TOKEN);
  });

  it.each(CASES.map(([behaviour]) => behaviour))(
    'should keep the apiToken out of a %s failure of getAll, getObject, metadata and save',
    async (behaviour) => {
      const upstream = client(behaviour);
      for (const call of [
        () => upstream.getAll(CREDENTIALS, 'com.example.Order', [], 20, 0),
        () => upstream.getObject(CREDENTIALS, 'com.example.Order', []),
        () => upstream.getMetadata(CREDENTIALS, 'r1', 'none'),
        () => upstream.save(CREDENTIALS, 'com.example.Order', { a: 1 }),
      ]) {
        const error = await failureOf(call());
        expect(error).toHaveProperty('kind');
        for (const text of renderings(error)) expect(text).not.toContain(TOKEN);
      }
    },
  );

  it.each(['hang', 'refused', 'reset', 'status-500', 'html', 'truncated', 'echo-error/auth'])(
    'should keep the password out of a %s failure of both logins',
    async (behaviour) => {
      const upstream = client(behaviour);
      for (const call of [
        () => upstream.loginJson('demo', PASSWORD),
        () => upstream.loginForm('demo', PASSWORD),
      ]) {
        const error = await failureOf(call());
        for (const text of renderings(error)) expect(text).not.toContain(PASSWORD);
      }
    },
  );

  it('should still say what the upstream said, minus the secret', async () => {
    const error = await failureOf(
      client('echo-error/auth').update(CREDENTIALS, 'com.example.Order', 'r1', {}),
    );
    expect(error).toMatchObject({ kind: 'unauthenticated', upstreamMessage: 'invalid token [redacted]' });
  });

  it.each(['UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'ECONNRESET', 'SOMETHING_NEW', undefined])(
    'should drop the message and cause chain of an HTTP error with code %s that quotes the URL',
    (code) => {
      const url = `http://127.0.0.1/studio/jsonp/getAll?apiToken=${TOKEN}`;
      const raw = Object.assign(new Error(`request to ${url} failed`, { cause: new Error(url) }), {
        code,
        url,
      });
      const error = toTransportError(raw, { operation: 'getAll', callTimedOut: false, callTimeoutMillis: 1 });
      for (const text of renderings(error)) expect(text).not.toContain(TOKEN);
      expect(error.cause).toEqual({ name: 'Error', code: code ?? 'UNKNOWN' });
    },
  );
});
