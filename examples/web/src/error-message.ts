/**
 * What the error banner and the login form say about a failed operation: the gateway's `extensions.code`
 * and a sentence a person can act on. No DOM here, so the wording is tested without a browser.
 */
import { CombinedGraphQLErrors, ServerError } from '@apollo/client';

/** A failure as the page shows it. */
export interface ErrorDescription {
  /** The gateway's `extensions.code`, or `HTTP_<status>` / `NETWORK_ERROR` when no GraphQL answer came. */
  code: string;
  message: string;
  /** Set when the gateway's login limiter locked the sign-in out (`extensions.retryAfter`, seconds). */
  retryAfterSeconds?: number;
}

/** `extensions.retryAfter` as whole seconds, or `undefined` when absent or not a positive number. */
function secondsOf(value: unknown): number | undefined {
  const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? Math.ceil(seconds)
    : undefined;
}

/** `45 seconds`, `1 second`, `3 minutes` (rounded up: never tell someone to retry too early). */
export function formatWait(seconds: number): string {
  if (seconds < 90) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

/** Describes any error Apollo Client throws for an operation. */
export function describeError(error: unknown): ErrorDescription {
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0];
    const extensions = first?.extensions ?? {};
    const code = typeof extensions.code === 'string' ? extensions.code : 'GRAPHQL_ERROR';
    const retryAfterSeconds = secondsOf(extensions.retryAfter);
    if (retryAfterSeconds !== undefined) {
      return {
        code,
        message: `Too many failed sign-ins: this sign-in is locked. Try again in ${formatWait(retryAfterSeconds)}.`,
        retryAfterSeconds,
      };
    }
    return { code, message: first?.message ?? error.message };
  }
  if (ServerError.is(error)) {
    return { code: `HTTP_${error.statusCode}`, message: `The gateway answered HTTP ${error.statusCode}.` };
  }
  return {
    code: 'NETWORK_ERROR',
    message: "The gateway cannot be reached. Is it running, and is this page's origin in its CORS_ORIGINS?",
  };
}
