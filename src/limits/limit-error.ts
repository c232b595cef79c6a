/**
 * The errors of the gateway's own limits: one stable `extensions.code` per limit, with the setting that
 * holds it (`limit`) and its value (`max`), so a front-end developer who hits one knows what to change.
 *
 * Apollo Server wraps every validation error in its own `GRAPHQL_VALIDATION_FAILED` (and parse errors in
 * `GRAPHQL_PARSE_FAILED`), keeping ours as `originalError`; {@link formatLimitError} puts our code back.
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';

/** The limits' codes (`extensions.code`). */
export const LimitCode = {
  MAX_DEPTH_EXCEEDED: 'MAX_DEPTH_EXCEEDED',
  MAX_ALIASES_EXCEEDED: 'MAX_ALIASES_EXCEEDED',
  MAX_DIRECTIVES_EXCEEDED: 'MAX_DIRECTIVES_EXCEEDED',
  MAX_TOKENS_EXCEEDED: 'MAX_TOKENS_EXCEEDED',
  MAX_COST_EXCEEDED: 'MAX_COST_EXCEEDED',
  /** Same string as `ErrorCode.MAX_UPSTREAM_CALLS_EXCEEDED`, which the run-time budget also answers. */
  MAX_UPSTREAM_CALLS_EXCEEDED: 'MAX_UPSTREAM_CALLS_EXCEEDED',
  BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  LOGIN_NOT_ALONE: 'LOGIN_NOT_ALONE',
  MAX_INTROSPECTION_DEPTH_EXCEEDED: 'MAX_INTROSPECTION_DEPTH_EXCEEDED',
} as const;

/** One of {@link LimitCode}. */
export type LimitCode = (typeof LimitCode)[keyof typeof LimitCode];

const CODES: ReadonlySet<string> = new Set(Object.values(LimitCode));

/** Whether `code` is one of the limits' codes. */
export function isLimitCode(code: unknown): code is LimitCode {
  return typeof code === 'string' && CODES.has(code);
}

/**
 * A limit's error: `setting` names the environment variable that holds `max` (none for fixed rules);
 * `extra` adds extensions (what was measured, Apollo's `http`).
 */
export function limitError(
  code: LimitCode,
  message: string,
  setting?: string,
  max?: number,
  extra: Record<string, unknown> = {},
): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code, ...(setting === undefined ? {} : { limit: setting, max }), ...extra },
  });
}

/** The wire form of a limit error outside GraphQL execution (the body cap, answered before Apollo). */
export function limitErrorBody(code: LimitCode, message: string, setting: string, max: number) {
  return { errors: [{ message, extensions: { code, limit: setting, max, blame: 'caller' } }] };
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
      extensions: { code: LimitCode.MAX_TOKENS_EXCEEDED, limit: 'MAX_TOKENS', max },
    };
  }
  return undefined;
}
