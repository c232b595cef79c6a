/** Reads the GraphQL errors out of an Apollo Client result (`errorPolicy: 'all'`). */
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { expect } from 'vitest';

/** The `extensions.code` of every GraphQL error in `error`, or `[]`. */
export function errorCodes(error: unknown): unknown[] {
  return CombinedGraphQLErrors.is(error) ? error.errors.map((e) => e.extensions?.code) : [];
}

/** The first GraphQL error, for asserting its message and extensions. */
export function firstError(error: unknown): { message: string; extensions: Record<string, unknown> } {
  if (!CombinedGraphQLErrors.is(error) || error.errors[0] === undefined) {
    throw new Error(`expected GraphQL errors, got ${String(error)}`);
  }
  const first = error.errors[0];
  return { message: first.message, extensions: first.extensions ?? {} };
}

/** Asserts that the first GraphQL error is a BAD_USER_INPUT naming `argumentName`, its message holding `message`. */
export function expectBadUserInput(error: unknown, argumentName: string, message: string): void {
  const refusal = firstError(error);
  expect(refusal.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
  expect(refusal.message).toContain(message);
}
