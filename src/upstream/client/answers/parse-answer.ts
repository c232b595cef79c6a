/**
 * Checking a decoded upstream answer at the boundary: a success of the expected shape is returned typed,
 * `status: error` becomes the matching {@link UpstreamError} kind (docs/design.md, "your token is
 * no good"), a well-formed answer of another shape `dialect_mismatch` (`answer_shape`).
 */
import type { z } from 'zod';
import { UpstreamError } from '../../../errors/upstream-error.ts';
import { errorAnswer, isJsonObject, passesAsDecoded } from './response-schemas.ts';
import { dialectMismatch } from '../../dialect/assumptions.ts';
import type { WireOperation } from '../wire.ts';

/** Login refusals that mean the account is locked or disabled ("User account is locked"), not the password wrong. */
const ACCOUNT_LOCKED_PATTERN =
  /\baccount\b[\s\S]{0,40}\b(?:locked|disabled|suspended|blocked)\b|\blocked out\b/i;

/** Update and metadata messages that mean the addressed object does not exist. */
const NOT_FOUND_PATTERN = /not found|no such|invalid id/i;
/** `SAVE_ERR_401`'s other meaning: the body lacked a field the upstream requires (`missing fields: organizationCode`). */
const MISSING_FIELDS_PATTERN = /^\s*missing fields?\b/i;

/**
 * How `status: error` messages are read, in this order: `auth` (the token is no good), `forbidden`, then
 * `callerInput`; anything else is the upstream's own refusal (`service`). Case-insensitive, stateless.
 */
export interface AnswerPatterns {
  auth: RegExp;
  forbidden: RegExp;
  callerInput: RegExp;
}

/**
 * The patterns from settings (`UPSTREAM_AUTH_ERROR_PATTERN`, `UPSTREAM_FORBIDDEN_ERROR_PATTERN`,
 * `UPSTREAM_CALLER_ERROR_PATTERN`, taken as given), each normalised with {@link toAuthPattern}.
 */
export function toAnswerPatterns(options: {
  auth: RegExp;
  forbidden: RegExp;
  callerInput: RegExp;
}): AnswerPatterns {
  return {
    auth: toAuthPattern(options.auth),
    forbidden: toAuthPattern(options.forbidden),
    callerInput: toAuthPattern(options.callerInput),
  };
}

/** Longest upstream message kept on an error; the rest is cut. */
const MAX_UPSTREAM_MESSAGE_LENGTH = 500;

/** What {@link parseAnswer} needs besides the answer. */
export interface AnswerContext {
  operation: WireOperation;
  /** Case-insensitive, without the `g`/`y` flags (see {@link toAnswerPatterns}). */
  patterns: AnswerPatterns;
  /** Values sent with the call (password, apiToken) that must not be echoed in an error. */
  secrets: readonly string[];
  /** The object name the call named, if any: a refusal about it is the caller's `objectName`. */
  objectName?: string | undefined;
}

/**
 * Refusals that speak of the object name itself (`unknown object name`, `Object type 'x' is not
 * registered`, a `ClassNotFoundException`) rather than of a filter or a value.
 */
const OBJECT_NAME_REFUSAL =
  /object ?(?:name|type|class)|unknown object|class ?not ?found|no such (?:class|type)/i;

/** Normalises a configured auth pattern: case-insensitive, and stateless (no `g`/`y`, so no `lastIndex`). */
export function toAuthPattern(pattern: RegExp): RegExp {
  const flags = pattern.flags.replace(/[gyi]/g, '');
  return new RegExp(pattern.source, `${flags}i`);
}

/**
 * Validates a decoded answer against the success `schema` of its operation.
 *
 * @throws UpstreamError `unauthenticated`, `not_found` or `service` for `status: error`; `dialect_mismatch`
 *   (`answer_shape`) for any other shape
 */
export function parseAnswer<T>(value: unknown, schema: z.ZodType<T>, context: AnswerContext): T {
  const { operation } = context;
  if (isJsonObject(value) && value.status === 'error') {
    const answer = errorAnswer.safeParse(value);
    if (answer.success) throw toStatusError(answer.data.message, answer.data.error_code, context);
  }
  // The read answers are checked by hand, without zod's copy of every record (`response-schemas.ts`).
  if (passesAsDecoded(schema, value)) return value as T;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  // Only the schema's own path and issue code are named: the received values may hold a token.
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.');
  // The answer was read whole, from the callback asked: a healthy upstream that speaks another dialect
  // (getObject's one record for an array, a key missing), the same every time. Never ill health.
  throw dialectMismatch(
    operation,
    'answer_shape',
    `answer has another shape than the document's at ${where} (${issue?.code ?? 'invalid'})`,
  );
}

/** Maps `status: error` to a kind; the upstream's message and code are kept, with any secret masked. */
export function toStatusError(
  rawMessage: string,
  rawCode: string | undefined,
  context: AnswerContext,
): UpstreamError {
  const { operation, patterns, secrets } = context;
  const upstreamMessage = redact(rawMessage, secrets).slice(0, MAX_UPSTREAM_MESSAGE_LENGTH);
  const upstreamErrorCode = rawCode === undefined ? undefined : redact(rawCode, secrets).slice(0, 100);
  const options = { operation, upstreamMessage, upstreamErrorCode };
  if (operation === 'loginJson' || operation === 'loginForm') {
    // A lock-out is no wrong password: the person must be told to wait or ask, not to type it again.
    if (ACCOUNT_LOCKED_PATTERN.test(rawMessage))
      return new UpstreamError('account_locked', 'account locked', options);
    return new UpstreamError('unauthenticated', 'login rejected', options);
  }
  if (operation === 'save' && upstreamErrorCode === 'SAVE_ERR_401') {
    // The code also means "missing fields": a request the gateway built incomplete (no organization), not
    // a token to give up on; taken for a rejection, it killed a good session.
    return MISSING_FIELDS_PATTERN.test(rawMessage)
      ? new UpstreamError('request_rejected', 'request incomplete (SAVE_ERR_401)', options)
      : new UpstreamError('unauthenticated', 'token rejected (SAVE_ERR_401)', options);
  }
  if (patterns.auth.test(rawMessage)) {
    return new UpstreamError('unauthenticated', 'token rejected', options);
  }
  if (patterns.forbidden.test(rawMessage)) {
    return new UpstreamError('forbidden', 'not open to this session', options);
  }
  if ((operation === 'update' || operation === 'metadata') && NOT_FOUND_PATTERN.test(rawMessage)) {
    return new UpstreamError('not_found', 'object not found', options);
  }
  if (patterns.callerInput.test(rawMessage)) {
    const { objectName } = context;
    // The caller typed the name: say which argument and echo it, so a typo is seen at once.
    const aboutName =
      objectName !== undefined && (OBJECT_NAME_REFUSAL.test(rawMessage) || rawMessage.includes(objectName));
    return new UpstreamError('rejected_input', 'input refused', {
      ...options,
      ...(aboutName ? { argument: 'objectName', objectName } : {}),
    });
  }
  return new UpstreamError('service', 'upstream reported an error', options);
}

function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret !== '') result = result.split(secret).join('[redacted]');
  }
  return result;
}
