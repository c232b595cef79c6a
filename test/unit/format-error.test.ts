import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/errors/error-codes.ts';
import { limitError } from '../../src/errors/graphql-errors.ts';
import { formatLimitError } from '../../src/errors/format-error.ts';

/** A MAX_UPSTREAM_CALLS_EXCEEDED error of the 50-call limit. */
const callsLimitError = (message: string, extensions?: Parameters<typeof limitError>[4]) =>
  limitError(
    ErrorCode.MAX_UPSTREAM_CALLS_EXCEEDED,
    message,
    'MAX_UPSTREAM_CALLS_PER_REQUEST',
    50,
    extensions,
  );

describe('formatLimitError', () => {
  it('should answer the limit error Apollo wrapped, without its http extension', () => {
    const refusal = callsLimitError('Too many calls.', { estimated: 303, http: { status: 400 } });
    const wrapped = new GraphQLError(refusal.message, {
      originalError: refusal,
      extensions: { code: 'WRAPPED' },
    });
    expect(formatLimitError({ message: 'x', extensions: { code: 'WRAPPED' } }, wrapped)).toEqual({
      message: 'Too many calls.',
      extensions: {
        code: 'MAX_UPSTREAM_CALLS_EXCEEDED',
        limit: 'MAX_UPSTREAM_CALLS_PER_REQUEST',
        max: 50,
        estimated: 303,
      },
    });
  });

  it('should keep the path of a limit error a resolver threw', () => {
    const error = callsLimitError('Budget spent.');
    const formatted = formatLimitError(
      { message: 'Budget spent.', path: ['objects', 'nodes', 3, 'metadata'] },
      error,
    );
    expect(formatted?.path).toEqual(['objects', 'nodes', 3, 'metadata']);
  });

  it('should leave other errors to the rest of the formatter', () => {
    expect(
      formatLimitError({ message: 'x' }, new GraphQLError('x', { extensions: { code: 'BAD_USER_INPUT' } })),
    ).toBeUndefined();
  });
});
