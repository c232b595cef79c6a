/**
 * The one error type the upstream layer throws. Every failure is the caller's, the upstream's refusal, the
 * upstream's ill health, or the gateway's own bug ({@link blameOf}, read from the one table in `blame.ts`).
 * The breaker and the retry budget count only ill health; each kind becomes a public GraphQL error in
 * exactly one place (`from-upstream-error.ts`); nothing else about a failure leaves the gateway.
 */
import { UPSTREAM_KIND_CODE, blameOfCode, type Blame, type UpstreamErrorKind } from './blame.ts';

export type { Blame, UpstreamErrorKind } from './blame.ts';

/** Options of {@link UpstreamError}. */
export interface UpstreamErrorOptions {
  /** The upstream operation that failed (`getAll`, `save`, …). */
  operation: string;
  /** The upstream's own `message`, for `service`/`unauthenticated`/`not_found`. Never holds a secret. */
  upstreamMessage?: string | undefined;
  /** The upstream's `error_code` (save documents `SAVE_ERR_401`). */
  upstreamErrorCode?: string | undefined;
  /** HTTP status when the failure was a non-2xx answer. */
  httpStatus?: number | undefined;
  /** For `invalid_input`: the argument or input path the caller should change (`id`, `data.items.3`). */
  argument?: string | undefined;
  /** For `rejected_input` of an object name (`argument: objectName`): the name the caller sent, echoed. */
  objectName?: string | undefined;
  /** For `dialect_mismatch`: the assumption the answer contradicted (`assumptions.ts`) and its setting. */
  assumption?: { name: string; setting: string } | undefined;
  /**
   * For a write the upstream applied although the gateway answers an error (a `dialect_mismatch` of a
   * save or update answer): the caller must not retry it. `objectId`: the written object's id, when known.
   */
  applied?: AppliedWrite | undefined;
  /**
   * For a write whose read-back does not show what was sent: each such field, with the value sent and the
   * value read back (JSON texts; `readBack: null` when the field is missing). The caller's own data.
   */
  fields?: readonly WrittenFieldDifference[] | undefined;
  /** For `dialect_mismatch` of a read: the criterion (field, operator as the caller wrote it) a record failed. */
  criterion?: { fieldName: string; operator: string } | undefined;
  /** The underlying error, for logs only. Must not carry a URL with credentials. */
  cause?: unknown;
}

/** A write the upstream applied although the gateway answers an error: the caller must not retry it. */
export interface AppliedWrite {
  /** The written object's id, when known. */
  objectId?: string | undefined;
  /** Fields of the object the write lost and the gateway could not restore exactly, by name. */
  lostFields?: readonly string[] | undefined;
}

/** One field a write's read-back does not show as sent (JSON texts). */
export interface WrittenFieldDifference {
  field: string;
  sent: string;
  readBack: string | null;
}

/**
 * A failed upstream call. Its `message` is built from the kind, the operation and text the gateway wrote,
 * so it can never contain a URL, a token or a password. For `invalid_input` the detail is written for the
 * caller: it says what to change.
 */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly kind: UpstreamErrorKind;
  readonly operation: string;
  /** The text after `upstream <operation>: `, as written for the kind. */
  readonly detail: string;
  readonly upstreamMessage: string | undefined;
  readonly upstreamErrorCode: string | undefined;
  readonly httpStatus: number | undefined;
  readonly argument: string | undefined;
  readonly objectName: string | undefined;
  readonly assumption: { name: string; setting: string } | undefined;
  readonly applied: AppliedWrite | undefined;
  readonly fields: readonly WrittenFieldDifference[] | undefined;
  readonly criterion: { fieldName: string; operator: string } | undefined;

  constructor(kind: UpstreamErrorKind, detail: string, options: UpstreamErrorOptions) {
    super(`upstream ${options.operation}: ${detail}`, { cause: options.cause });
    this.kind = kind;
    this.detail = detail;
    this.operation = options.operation;
    this.upstreamMessage = options.upstreamMessage;
    this.upstreamErrorCode = options.upstreamErrorCode;
    this.httpStatus = options.httpStatus;
    this.argument = options.argument;
    this.objectName = options.objectName;
    this.assumption = options.assumption;
    this.applied = options.applied;
    this.fields = options.fields;
    this.criterion = options.criterion;
  }

  /** Whose fault this is. */
  get blame(): Blame {
    return blameOf(this.kind);
  }

  /** Reads may be retried after these kinds; writes never are. */
  get retryable(): boolean {
    return this.kind === 'timeout' || this.kind === 'unavailable';
  }
}

/** Type guard for {@link UpstreamError}. */
export function isUpstreamError(value: unknown): value is UpstreamError {
  return value instanceof UpstreamError;
}

/** Whose fault `kind` is: the blame of the code it answers, the kind being its reason (`blame.ts`). */
export function blameOf(kind: UpstreamErrorKind): Blame {
  return blameOfCode(UPSTREAM_KIND_CODE[kind], kind);
}

/**
 * Whether a failure says the upstream is sick, so that it counts against the circuit breaker. Only answers
 * the upstream itself gave (or failed to give) count: a caller's mistake, an upstream's deliberate
 * refusal, the gateway's own bug, and the guard's own fail-fast refusals never do, so no caller can open
 * the breaker for everyone else.
 */
export function countsAgainstUpstream(error: unknown): error is UpstreamError {
  if (!isUpstreamError(error)) return false;
  const { kind } = error;
  // A write whose answer the gateway itself cut (the answer budget) says nothing about the upstream.
  if (kind === 'outcome_unknown') return !isBudgetCut(error.cause);
  return kind === 'timeout' || kind === 'unavailable' || kind === 'bad_response';
}

/** Whether `error` is the gateway's own refusal to hold more answer bytes (`answer-budget.ts`). */
export function isBudgetCut(error: unknown): boolean {
  return isUpstreamError(error) && (error.kind === 'answer_share' || error.kind === 'overloaded');
}

/**
 * `error` as the failure of something done after a write the upstream applied (its read-back): the same
 * failure, marked applied with the written object's id, so that no answer of it invites sending the write again.
 */
export function markApplied(error: UpstreamError, objectId: string): UpstreamError {
  if (error.applied !== undefined) return error;
  return new UpstreamError(error.kind, error.detail, {
    operation: error.operation,
    upstreamMessage: error.upstreamMessage,
    upstreamErrorCode: error.upstreamErrorCode,
    httpStatus: error.httpStatus,
    argument: error.argument,
    assumption: error.assumption,
    applied: { objectId },
    fields: error.fields,
    cause: error,
  });
}

/** `invalid_input` for `operation`: `detail` tells the caller what to change. */
export function invalidInput(operation: string, detail: string, argument?: string): UpstreamError {
  return new UpstreamError('invalid_input', detail, { operation, argument });
}
