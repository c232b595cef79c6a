import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { UpstreamError } from '../../src/errors/upstream-error.ts';
import { parseAnswer, toAnswerPatterns } from '../../src/upstream/client/answers/parse-answer.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { AnswerContext } from '../../src/upstream/client/answers/parse-answer.ts';
import {
  formLoginAnswer,
  getAllAnswer,
  getObjectAnswer,
  jsonLoginAnswer,
  saveAnswer,
  updateAnswer,
} from '../../src/upstream/client/answers/response-schemas.ts';
import type { WireOperation } from '../../src/upstream/client/wire.ts';
import { thrownBy } from '../support/thrown-by.ts';

/** The settings a user gets by default. */
const CONFIG = loadConfig({});

function context(operation: WireOperation, authPattern?: RegExp): AnswerContext {
  return {
    operation,
    patterns: toAnswerPatterns({
      auth: authPattern ?? CONFIG.authErrorPattern,
      forbidden: CONFIG.forbiddenErrorPattern,
      callerInput: CONFIG.callerErrorPattern,
    }),
    secrets: ['tok-SECRET-1', 'pw-SECRET-2'],
  };
}

const failure = (run: () => unknown) => thrownBy(run) as UpstreamError;

function statusError(operation: WireOperation, message: string, errorCode?: string, pattern?: RegExp) {
  const answer = { status: 'error', message, ...(errorCode === undefined ? {} : { error_code: errorCode }) };
  const schema: z.ZodType =
    operation === 'save' ? saveAnswer : operation === 'update' ? updateAnswer : getAllAnswer;
  return failure(() => parseAnswer(answer, schema, context(operation, pattern)));
}

describe('parseAnswer', () => {
  it.each([
    ['loginJson', 'Bad credentials', undefined, 'unauthenticated'],
    ['loginForm', 'Invalid mobile number or password', undefined, 'unauthenticated'],
    ['save', 'Bad token', 'SAVE_ERR_401', 'unauthenticated'],
    ['save', 'missing fields: organizationCode', 'SAVE_ERR_401', 'request_rejected'],
    ['save', 'Object name is not valid', 'SAVE_ERR_400', 'rejected_input'],
    ['getAll', 'Invalid apiToken', undefined, 'unauthenticated'],
    ['getObject', 'Your session has expired', undefined, 'unauthenticated'],
    ['metadata', 'Unauthorised', undefined, 'unauthenticated'],
    ['getAll', 'Missing credential', undefined, 'unauthenticated'],
    ['getAll', 'Invalid object name', undefined, 'rejected_input'],
    ['update', 'Object not found', undefined, 'not_found'],
    ['update', 'No such object: r9', undefined, 'not_found'],
    ['update', 'Invalid id', undefined, 'not_found'],
    ['update', 'Invalid token', undefined, 'unauthenticated'],
    ['update', 'Database unavailable', undefined, 'service'],
    ['getObject', 'Object not found', undefined, 'service'],
  ] as const)('should map %s answering %j (%s) to %s', (operation, message, code, kind) => {
    expect(statusError(operation, message, code)).toMatchObject({
      kind,
      operation,
      upstreamMessage: message,
      upstreamErrorCode: code,
    });
  });

  it('should use a configured auth pattern instead of the default, case-insensitively and statelessly', () => {
    const pattern = /denied/g;
    expect(statusError('getAll', 'ACCESS DENIED', undefined, pattern).kind).toBe('unauthenticated');
    expect(statusError('getAll', 'access denied', undefined, pattern).kind).toBe('unauthenticated');
    expect(statusError('getAll', 'Invalid token', undefined, pattern).kind).toBe('service');
  });

  it('should mask sent secrets that the upstream echoes in its message or code', () => {
    const error = statusError('save', 'token tok-SECRET-1 for pw-SECRET-2 refused', 'E_tok-SECRET-1');
    expect(error.upstreamMessage).toBe('token [redacted] for [redacted] refused');
    expect(error.upstreamErrorCode).toBe('E_[redacted]');
  });

  it('should tolerate an error answer without message', () => {
    const error = failure(() => parseAnswer({ status: 'error' }, getAllAnswer, context('getAll')));
    expect(error).toMatchObject({ kind: 'service', upstreamMessage: '' });
  });

  it.each([
    ['no status', { data: [], totalCount: 0 }],
    ['an unknown status', { status: 'ok', data: [], totalCount: 0 }],
    ['no data', { status: 'success', totalCount: 0 }],
    ['a record without _id', { status: 'success', data: [{ name: 'x' }], totalCount: 1 }],
    ['a numeric _id', { status: 'success', data: [{ _id: 7 }], totalCount: 1 }],
    ['an array', [{ status: 'success' }]],
    ['null', null],
  ])(
    'should call a getAll answer with %s a dialect mismatch (answer_shape), never ill health',
    (_name, answer) => {
      const error = failure(() => parseAnswer(answer, getAllAnswer, context('getAll')));
      expect(error).toMatchObject({ kind: 'dialect_mismatch', assumption: { name: 'answer_shape' } });
    },
  );

  it('should not quote received values in a shape error', () => {
    const error = failure(() =>
      parseAnswer({ status: 'success', token: 12345678 }, jsonLoginAnswer, context('loginJson')),
    );
    expect(error.kind).toBe('dialect_mismatch');
    expect(error.message).toContain('token');
    expect(error.message).not.toContain('12345678');
  });

  it('should return records exactly as decoded, own __proto__ fields included', () => {
    const answer: unknown = JSON.parse(
      '{"status":"success","totalCount":1,"data":[{"_id":"a","__proto__":{"x":1},"n":{"__proto__":2}}]}',
    );
    const page = parseAnswer(answer, getAllAnswer, context('getAll'));
    const record = page.data[0]!;
    expect(Object.hasOwn(record, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(record).toBe((answer as { data: unknown[] }).data[0]);
  });

  it('should accept a form login without token and with a numeric userId', () => {
    const answer = { status: 'success', userId: 42, username: '5550100', message: 'Welcome' };
    expect(parseAnswer(answer, formLoginAnswer, context('loginForm'))).toEqual({
      status: 'success',
      userId: '42',
      username: '5550100',
      token: undefined,
      message: 'Welcome',
    });
  });

  it('should require updatedFields to be an object', () => {
    const answer = { status: 'success', savedObjectId: 'r1', message: 'ok', updatedFields: [] };
    expect(failure(() => parseAnswer(answer, updateAnswer, context('update'))).kind).toBe('dialect_mismatch');
  });
});

describe('parseAnswer on read answers (property: the hand-written guard and the schema agree)', () => {
  const record = fc.oneof(
    fc.record({ _id: fc.string(), n: fc.integer() }),
    fc.record({ _id: fc.oneof(fc.integer(), fc.constant(null)) }),
    fc.constantFrom(null, [], 'x', 1),
    fc.anything(),
  );
  const answer = fc.record(
    {
      status: fc.constantFrom('success', 'Success', 'ok', undefined),
      data: fc.oneof(fc.array(record, { maxLength: 4 }), fc.anything()),
      totalCount: fc.oneof(
        fc.nat(),
        fc.constantFrom(-1, -0, 0.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '3', null),
        fc.double(),
      ),
      extra: fc.anything(),
    },
    { requiredKeys: [] },
  );
  const cases: [string, z.ZodType, WireOperation][] = [
    ['getAll', getAllAnswer, 'getAll'],
    ['getObject', getObjectAnswer, 'getObject'],
  ];

  it.each(cases)(
    'should accept exactly what the %s schema accepts, records untouched',
    (_name, schema, op) => {
      fc.assert(
        fc.property(fc.oneof(answer, fc.anything()), (value) => {
          const expected = schema.safeParse(value);
          if (expected.success) {
            const got = parseAnswer(value, schema, context(op)) as { data: unknown[] };
            const want = expected.data as { data: unknown[] };
            expect(got.data).toEqual(want.data);
            got.data.forEach((element, i) => {
              expect(element).toBe(want.data[i]);
            });
            // getObject's schema drops totalCount (the client never reads it); getAll's keeps it.
            if (op === 'getAll') {
              expect((got as { totalCount?: unknown }).totalCount).toBe(
                (want as { totalCount?: unknown }).totalCount,
              );
            }
          } else {
            const error = failure(() => parseAnswer(value, schema, context(op)));
            expect(error.kind).toBe('dialect_mismatch');
          }
        }),
        { numRuns: 1000 },
      );
    },
  );
});
