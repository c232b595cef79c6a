/**
 * One upstream operation, run once: build the request with a fresh callback name, send it, decode the
 * answer, check it, report the call to `onCall`. Retries are the resilience layer's (`resilience.ts`), where
 * the retry budget and the request's deadline are known.
 */
import { deadSessionBody } from '../dialect/dead-session.ts';
import type { z } from 'zod';
import type { AnswerBudget, AnswerLease } from './answer-budget.ts';
import { UpstreamError, invalidInput, isBudgetCut, isUpstreamError } from '../../errors/upstream-error.ts';
import type { HttpAnswer, HttpCall, HttpTransport } from './http-transport.ts';
import { buildRequestPath } from './join-url.ts';
import type { UpstreamBase } from './join-url.ts';
import { createCallbackNames, decodeJsonOrJsonp, decodeJsonp } from './answers/jsonp.ts';
import { parseAnswer, type AnswerPatterns } from './answers/parse-answer.ts';
import type { RequestChecks } from './request-checks.ts';
import { toTransportError, wasNeverSent } from './transport-error.ts';
import type { UpstreamAttempt, UpstreamAttemptCall, UpstreamCallEvent } from './types.ts';
import { decodeAnswer, type AnswerCharset } from '../dialect/charset/answer-charset.ts';
import type { WireOperation } from './wire.ts';
import { isLargeAnswer, type ParseSlots } from '../dialect/parse-slots.ts';

/** The request of one call; built per call, because every call (a retry too) gets a fresh callback name. */
export interface BuiltRequest {
  /** Below the base's prefix, starting with `/`, dynamic segments already encoded. */
  path: string;
  query?: Record<string, string | undefined>;
  contentType?: string;
  body?: string;
  /** The `Cookie` header: a session the form login carried in a cookie (a secret, like `apiToken`). */
  cookie?: string | undefined;
}

/** Everything that differs between the seven operations. */
export interface Exchange<T> {
  operation: WireOperation;
  base: UpstreamBase;
  method: 'GET' | 'POST';
  /**
   * A write: once sent, a lost or unreadable answer leaves its outcome unknown (`outcome_unknown`), which
   * the caller must hear as "read before you retry", not as "it failed".
   */
  write?: boolean;
  /** `jsonp`: wrapped in the callback we sent. `json`: plain JSON, though a wrapper is tolerated. */
  answer: 'jsonp' | 'json';
  schema: z.ZodType<T>;
  /** Sent with the call; masked if the upstream echoes them in an error message. */
  secrets: readonly string[];
  /** The object name the call names (reads and writes): a refusal of it names the caller's argument. */
  objectName?: string | undefined;
  /** Hears the charset the answer was decoded in (reads and writes: what text can come back). */
  heard?: ((charset: AnswerCharset, text: string) => void) | undefined;
  /** Whose share of the answer budget the answer takes: the user, or `undefined` for a login. */
  holder?: string | undefined;
  /** Handed a 2xx answer's `set-cookie` values (the form login). */
  onSetCookie?: ((values: string | string[] | undefined) => void) | undefined;
  /**
   * Awaited once the request is built and held to the request-line limit, before it is sent: a write's check
   * that must not cost a request the gateway would refuse anyway (an update's read of its object).
   */
  beforeSend?: (() => Promise<void>) | undefined;
  build(callback: string): BuiltRequest;
}

/** What {@link createExchangeRunner} needs. */
export interface ExchangeRunnerOptions {
  transport: HttpTransport;
  /** How `status: error` messages are classified (`parse-answer.ts`). */
  patterns: AnswerPatterns;
  /** The request-line limit every built request is held to. */
  checks: RequestChecks;
  callTimeoutMillis: number;
  /** The charset of answers whose Content-Type names none (`UPSTREAM_ANSWER_CHARSET`). */
  answerCharset: AnswerCharset;
  /** Answer bytes held at once (`answer-budget.ts`); unbounded without it. */
  answerBudget?: AnswerBudget | undefined;
  /** Large answers parsed one per user at a time, in turns (`dialect/parse-slots.ts`); unbounded without it. */
  parseSlots?: ParseSlots | undefined;
  onCall?: ((event: UpstreamCallEvent) => void) | undefined;
  /** Tracing's CLIENT span of each HTTP attempt. */
  onAttempt?: ((call: UpstreamAttemptCall) => UpstreamAttempt | undefined) | undefined;
}

/** Returns `run(exchange)`, which resolves to the checked answer or throws an `UpstreamError`. */
export function createExchangeRunner(
  options: ExchangeRunnerOptions,
): <T>(exchange: Exchange<T>) => Promise<T> {
  const { transport, patterns, checks, callTimeoutMillis } = options;
  const createCallbackName = createCallbackNames();

  async function run<T>(exchange: Exchange<T>): Promise<T> {
    if (exchange.beforeSend !== undefined) {
      // The caller's mistakes first (the same checks run again below), then the check before sending.
      buildRequest(exchange, createCallbackName(), undefined);
      await exchange.beforeSend();
    }
    const { operation } = exchange;
    const started = performance.now();
    let outcome = 'ok';
    let detail: string | undefined;
    // Held until the answer is parsed (or dropped): the text and the parsed value come from these bytes.
    const lease = options.answerBudget?.lease(exchange.holder, operation);
    try {
      const callback = createCallbackName();
      const built = buildRequest(exchange, callback, lease);
      const attempt = options.onAttempt?.(built);
      if (attempt?.headers !== undefined) built.headers = { ...built.headers, ...attempt.headers };
      let answer: HttpAnswer;
      try {
        answer = await transport.send(built);
      } catch (error) {
        attempt?.end(undefined, error);
        throw settleWrite(
          exchange,
          toTransportError(error, { operation, callTimedOut: false, callTimeoutMillis }),
        );
      }
      try {
        const { parseSlots } = options;
        // Small answers keep the synchronous path; a large one waits for its user's parse slot.
        const result =
          parseSlots === undefined || !isLargeAnswer(answer.body.length)
            ? readAnswer(exchange, answer, callback)
            : await parseSlots.run(exchange.holder, () => readAnswer(exchange, answer, callback));
        // The attempt's span ends with its answer read: an answer that says `error` fails it too.
        attempt?.end(answer.status, undefined);
        return result;
      } catch (error) {
        attempt?.end(answer.status, error);
        throw settleWrite(exchange, error);
      }
    } catch (error) {
      const failure = isUpstreamError(error)
        ? error
        : new UpstreamError('internal', 'the gateway failed before sending', { operation });
      outcome = failure.kind;
      detail = failure.detail;
      throw failure;
    } finally {
      lease?.release();
      report({ operation, durationMillis: performance.now() - started, outcome, detail });
    }
  }

  /** Decodes, unwraps, parses and checks one answer: all synchronous, CPU in proportion to its size. */
  function readAnswer<T>(exchange: Exchange<T>, answer: HttpAnswer, callback: string): T {
    const { operation } = exchange;
    const text = decodeAnswer(
      answer.body,
      answer.contentType,
      options.answerCharset,
      operation,
      exchange.heard,
    );
    let decoded: unknown;
    try {
      decoded =
        exchange.answer === 'jsonp'
          ? decodeJsonp(text, callback, operation)
          : decodeJsonOrJsonp(text, operation);
    } catch (error) {
      // A body that is no JSON(P) may be a servlet's dead session (its login page, a text): the session's end.
      throw deadSessionBody(text, answer.contentType, patterns.auth, operation) ?? error;
    }
    return parseAnswer(decoded, exchange.schema, {
      operation,
      patterns,
      secrets: exchange.secrets,
      objectName: exchange.objectName,
    });
  }

  /** The HTTP call of one run, held to the request-line limit before it can be sent. */
  function buildRequest<T>(
    exchange: Exchange<T>,
    callback: string,
    lease: AnswerLease | undefined,
  ): HttpCall {
    const built = exchange.build(callback);
    let path: string;
    try {
      path = buildRequestPath(exchange.base, built.path, built.query);
    } catch (error) {
      // `encodeURIComponent` refuses a lone surrogate: a caller's string that is not well-formed Unicode.
      if (!(error instanceof URIError)) throw error;
      throw invalidInput(
        exchange.operation,
        'A value sent in the upstream URL holds a lone surrogate (not well-formed Unicode).',
      );
    }
    checks.target(exchange.operation, path, exchange.base.origin, built.cookie?.length);
    // One object of one shape for every call (no spread of a temporary, no property added afterwards).
    return {
      operation: exchange.operation,
      method: exchange.method,
      origin: exchange.base.origin,
      path,
      headers: headersOf(built),
      body: built.body,
      lease,
      onSetCookie: exchange.onSetCookie,
    };
  }

  function report(event: UpstreamCallEvent): void {
    try {
      options.onCall?.(event);
    } catch {
      // A failing metrics or log listener must not turn a good upstream answer into an error.
    }
  }

  return run;
}

/** The request headers a built request adds to the transport's own (`accept`). */
function headersOf(built: BuiltRequest): Record<string, string> | undefined {
  const { contentType, cookie } = built;
  if (cookie === undefined) return contentType === undefined ? undefined : { 'content-type': contentType };
  return contentType === undefined ? { cookie } : { 'content-type': contentType, cookie };
}

/**
 * A write whose request may have reached the upstream but whose answer was lost (timeout, reset, 5xx) or
 * unreadable (truncated, wrong callback) becomes `outcome_unknown`: it may have been applied. A failure
 * that proves nothing was sent (connection refused, connect timeout), and any well-formed answer, stay
 * what they are.
 */
function settleWrite(exchange: { write?: boolean; operation: string }, error: unknown): unknown {
  if (!exchange.write || !isUpstreamError(error)) return error;
  // The budget cut the answer of a write already sent: whoever's fault, it may have been applied.
  if (error.blame !== 'upstream_health' && !isBudgetCut(error)) return error;
  if (wasNeverSent(error)) return error;
  return new UpstreamError('outcome_unknown', error.kind, {
    operation: exchange.operation,
    httpStatus: error.httpStatus,
    cause: error,
  });
}
