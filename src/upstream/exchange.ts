/**
 * One upstream operation, run: build the request with a fresh callback name, send it, decode the answer,
 * check it, report the attempt to `onCall`, and retry it when it is a read that may be retried.
 */
import type { z } from 'zod';
import { isUpstreamError } from './errors.ts';
import type { HttpTransport } from './http-transport.ts';
import { buildRequestPath } from './join-url.ts';
import type { UpstreamBase } from './join-url.ts';
import { createCallbackNames, decodeJsonOrJsonp, decodeJsonp } from './jsonp.ts';
import { parseAnswer } from './parse-answer.ts';
import { retryRead } from './retry-read.ts';
import { toTransportError } from './transport-error.ts';
import type { UpstreamCallEvent } from './types.ts';
import type { WireOperation } from './wire.ts';

/** The request of one attempt; built per attempt, because every attempt gets a fresh callback name. */
export interface BuiltRequest {
  /** Below the base's prefix, starting with `/`, dynamic segments already encoded. */
  path: string;
  query?: Record<string, string | undefined>;
  contentType?: string;
  body?: string;
}

/** Everything that differs between the seven operations. */
export interface Exchange<T> {
  operation: WireOperation;
  base: UpstreamBase;
  method: 'GET' | 'POST';
  /** Reads are retried on `timeout`/`unavailable`; writes and logins never. */
  retry: boolean;
  /** `jsonp`: wrapped in the callback we sent. `json`: plain JSON, though a wrapper is tolerated. */
  answer: 'jsonp' | 'json';
  schema: z.ZodType<T>;
  /** Sent with the call; masked if the upstream echoes them in an error message. */
  secrets: readonly string[];
  build(callback: string): BuiltRequest;
}

/** What {@link createExchangeRunner} needs. */
export interface ExchangeRunnerOptions {
  transport: HttpTransport;
  readRetries: number;
  authPattern: RegExp;
  callTimeoutMillis: number;
  onCall?: ((event: UpstreamCallEvent) => void) | undefined;
}

/** Returns `run(exchange)`, which resolves to the checked answer or throws an `UpstreamError`. */
export function createExchangeRunner(
  options: ExchangeRunnerOptions,
): <T>(exchange: Exchange<T>) => Promise<T> {
  const { transport, authPattern, callTimeoutMillis } = options;
  const createCallbackName = createCallbackNames();

  async function attempt<T>(exchange: Exchange<T>, attemptNumber: number): Promise<T> {
    const { operation } = exchange;
    const started = performance.now();
    let outcome = 'ok';
    try {
      const callback = createCallbackName();
      const built = exchange.build(callback);
      const text = await transport.send({
        operation,
        method: exchange.method,
        origin: exchange.base.origin,
        path: buildRequestPath(exchange.base, built.path, built.query),
        ...(built.contentType === undefined ? {} : { headers: { 'content-type': built.contentType } }),
        ...(built.body === undefined ? {} : { body: built.body }),
      });
      const decoded =
        exchange.answer === 'jsonp'
          ? decodeJsonp(text, callback, operation)
          : decodeJsonOrJsonp(text, operation);
      return parseAnswer(decoded, exchange.schema, { operation, authPattern, secrets: exchange.secrets });
    } catch (error) {
      const failure = isUpstreamError(error)
        ? error
        : toTransportError(error, { operation, callTimedOut: false, callTimeoutMillis });
      outcome = failure.kind;
      throw failure;
    } finally {
      report({ operation, durationMillis: performance.now() - started, outcome, attempt: attemptNumber });
    }
  }

  function report(event: UpstreamCallEvent): void {
    try {
      options.onCall?.(event);
    } catch {
      // A failing metrics or log listener must not turn a good upstream answer into an error.
    }
  }

  return <T>(exchange: Exchange<T>): Promise<T> =>
    exchange.retry ? retryRead(options.readRetries, (n) => attempt(exchange, n)) : attempt(exchange, 1);
}
