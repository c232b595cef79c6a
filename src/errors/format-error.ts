/**
 * Apollo's `formatError`: every error leaves with its catalogue code and its blame, and nothing internal.
 *
 * Apollo Server wraps every validation error in its own `GRAPHQL_VALIDATION_FAILED` (and parse errors in
 * `GRAPHQL_PARSE_FAILED`), keeping ours as `originalError`; {@link formatLimitError} puts a limit's code back.
 */
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { isUpstreamError } from './upstream-error.ts';
import { ErrorCode, isLimitCode } from './error-codes.ts';
import { blameOfCode } from './blame.ts';
import { fromUpstreamError } from './from-upstream-error.ts';
import { withoutSuggestion } from './schema-hints.ts';

/** Options of {@link createErrorFormatter}. */
export interface ErrorFormatterOptions {
  /** Stack traces never leave. */
  production: boolean;
  /** Take graphql-js's `Did you mean …?` off every message (introspection off: `schema-hints.ts`). */
  hideSuggestions?: boolean | undefined;
}

/**
 * Apollo's `formatError`: maps upstream failures to their codes and hides everything internal (unexpected
 * errors become `INTERNAL_SERVER_ERROR`; stack traces never leave in production).
 */
export function createErrorFormatter(options: ErrorFormatterOptions) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const answer = addBlame(format(formatted, error, options));
    return options.hideSuggestions === true
      ? { ...answer, message: withoutSuggestion(answer.message) }
      : answer;
  };
}

function format(
  formatted: GraphQLFormattedError,
  error: unknown,
  options: { production: boolean },
): GraphQLFormattedError {
  const limit = formatLimitError(formatted, error);
  if (limit !== undefined) return limit;
  const input = formatInputValidationError(formatted, error);
  if (input !== undefined) return input;
  const original = unwrapResolverError(error);
  const notAcceptable = formatNotAcceptable(formatted, original);
  if (notAcceptable !== undefined) return notAcceptable;
  if (isUpstreamError(original)) {
    const mapped = fromUpstreamError(original).toJSON();
    return { ...mapped, locations: formatted.locations, path: formatted.path };
  }
  const code = formatted.extensions?.code;
  if (code === ErrorCode.INTERNAL_SERVER_ERROR || code === undefined) {
    if (original instanceof GraphQLError && original.extensions.code !== undefined)
      return strip(formatted, options);
    return {
      message: 'Internal server error.',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
    };
  }
  return strip(formatted, options);
}

/**
 * Apollo answers an `Accept` header it cannot serve with 406 and the code `BAD_REQUEST`, which the catalogue
 * gives 400: the status keeps its own code, and the message says what to send.
 */
function formatNotAcceptable(
  formatted: GraphQLFormattedError,
  original: unknown,
): GraphQLFormattedError | undefined {
  if (formatted.extensions?.code !== ErrorCode.BAD_REQUEST || !isErrorLike(original)) return undefined;
  const { http } = original.extensions;
  if (typeof http !== 'object' || http === null || (http as { status?: unknown }).status !== 406)
    return undefined;
  return {
    message:
      'The Accept header names no type this endpoint answers: accept application/graphql-response+json or ' +
      'application/json (text/html is the landing page, which LANDING_PAGE turns on).',
    extensions: { code: ErrorCode.NOT_ACCEPTABLE },
  };
}

/**
 * Every error says whose fault it is (`extensions.blame`), as the table decides for its code and reason
 * (`blame.ts`); a blame the error already carries was read from the same table.
 */
function addBlame(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const extensions = formatted.extensions ?? {};
  if (extensions.blame !== undefined) return formatted;
  const code = typeof extensions.code === 'string' ? extensions.code : ErrorCode.INTERNAL_SERVER_ERROR;
  return { ...formatted, extensions: { ...extensions, blame: blameOfCode(code, extensions.reason) } };
}

function strip(formatted: GraphQLFormattedError, options: { production: boolean }): GraphQLFormattedError {
  if (!options.production || formatted.extensions?.stacktrace === undefined) return formatted;
  const { stacktrace: _stacktrace, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}

// graphql-js's own token limit (`parseOptions.maxLexicalTokens`) words its syntax error like this; 16.x
// spells it "more that", a later release may fix the typo.
const TOKEN_LIMIT = /Document contains more tha[nt] (\d+) tokens/;

/** The parts of a `GraphQLError` read here. */
interface ErrorLike {
  message: string;
  extensions: Record<string, unknown>;
  originalError?: unknown;
}

/**
 * Duck-typed rather than `instanceof`: Apollo Server and this code may load different copies of graphql-js
 * (the CommonJS and the ESM build, as under a bundler or vitest), whose `GraphQLError` classes differ.
 */
function isErrorLike(value: unknown): value is ErrorLike {
  if (typeof value !== 'object' || value === null) return false;
  const { message, extensions } = value as Record<string, unknown>;
  return typeof message === 'string' && typeof extensions === 'object' && extensions !== null;
}

/**
 * For Apollo's `formatError`: the formatted limit error when `error` is (or wraps) one, else `undefined`.
 */
export function formatLimitError(
  formatted: GraphQLFormattedError,
  error: unknown,
): GraphQLFormattedError | undefined {
  if (!isErrorLike(error)) return undefined;
  const original = isErrorLike(error.originalError) ? error.originalError : error;
  const { code } = original.extensions;
  if (isLimitCode(code)) {
    const { http: _http, ...extensions } = original.extensions;
    // A resolver's error keeps its path (the run-time upstream call budget shares a code with the limits).
    const path = formatted.path === undefined ? {} : { path: formatted.path };
    return { message: original.message, locations: formatted.locations, ...path, extensions };
  }
  const tokens = TOKEN_LIMIT.exec(original.message);
  if (formatted.extensions?.code === 'GRAPHQL_PARSE_FAILED' && tokens !== null) {
    const max = Number(tokens[1]);
    return {
      message: `The operation has more than ${max} tokens.`,
      extensions: { code: ErrorCode.MAX_TOKENS_EXCEEDED, limit: 'MAX_TOKENS', max },
    };
  }
  return undefined;
}

/** The codes a validation rule of ours keeps (see {@link formatInputValidationError}). */
const INPUT_CODES: ReadonlySet<unknown> = new Set([
  ErrorCode.BAD_USER_INPUT,
  ErrorCode.BAD_REQUEST,
  ErrorCode.INTROSPECTION_DISABLED,
]);

/**
 * A validation rule of ours that refuses the caller's input keeps its code rather than Apollo's
 * `GRAPHQL_VALIDATION_FAILED`, the code of the same mistake in the variables: `BAD_USER_INPUT` for a number
 * literal a double would change, `BAD_REQUEST` for a forbidden key (`__proto__`); and `INTROSPECTION_DISABLED`,
 * which names the setting, for `__schema` while introspection is off.
 */
function formatInputValidationError(
  formatted: GraphQLFormattedError,
  error: unknown,
): GraphQLFormattedError | undefined {
  if (formatted.extensions?.code !== 'GRAPHQL_VALIDATION_FAILED' || !isErrorLike(error)) return undefined;
  const original = isErrorLike(error.originalError) ? error.originalError : error;
  const { code } = original.extensions;
  if (!INPUT_CODES.has(code)) return undefined;
  return { ...formatted, extensions: { ...formatted.extensions, code } };
}
