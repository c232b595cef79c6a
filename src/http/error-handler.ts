/**
 * The root error and not-found handlers: every error Fastify raises before GraphQL execution (a malformed or
 * oversized body, an unsupported content type, an unknown path, a wrong method) is answered in the
 * GraphQL-over-HTTP shape with a stable code, instead of Fastify's own `{statusCode, error, message}`.
 *
 * The messages are ours, never the error's: a thrown error may quote the caller's input or the gateway's
 * internals, and a stable message is easier to document.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../errors/error-codes.ts';
import { blameOfCode, httpStatusOf } from '../errors/blame.ts';
import { limitErrorBody } from '../errors/graphql-errors.ts';
import { GatewayBusyError, busyBlame, sendBusy } from './capacity/busy-answer.ts';
import { JSON_CONTENT_TYPE, httpErrorBody } from '../errors/http-error.ts';

/** Options of {@link registerErrorHandler}. */
export interface ErrorHandlerOptions {
  /** `MAX_BODY_BYTES`, quoted in `BODY_TOO_LARGE`. */
  maxBodyBytes: number;
  /** Called with every refusal's code (the request log's outcome, metrics) and its blame (`errors/blame.ts`). */
  onRefused?: (request: FastifyRequest, code: string, blame?: string) => void;
}

/** What an error becomes on the wire. */
export interface HttpAnswer {
  status: number;
  code: string;
  message: string;
}

/** The answer with `code`, at the HTTP status the table gives it (`errors/blame.ts`). */
function answerWith(code: ErrorCode, message: string): HttpAnswer {
  return { status: httpStatusOf(code), code, message };
}

const BAD_JSON = answerWith(ErrorCode.BAD_REQUEST, 'The request body is not valid JSON.');
const UNSUPPORTED_TYPE = answerWith(
  ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  'Unsupported content type: send the operation as application/json.',
);
const FORBIDDEN_KEY = answerWith(
  ErrorCode.BAD_REQUEST,
  'The request body holds a forbidden key (`__proto__` or `constructor.prototype`).',
);
const NOT_FOUND = answerWith(ErrorCode.NOT_FOUND, 'Not found.');
const TIMEOUT = answerWith(ErrorCode.REQUEST_TIMEOUT, 'The request took too long to arrive.');
const INTERNAL = answerWith(ErrorCode.INTERNAL_SERVER_ERROR, 'Internal server error.');

/** Fastify's own errors, by their code. */
const BY_FASTIFY_CODE: Readonly<Record<string, HttpAnswer>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: BAD_JSON,
  FST_ERR_CTP_EMPTY_JSON_BODY: answerWith(
    ErrorCode.BAD_REQUEST,
    'The request body is empty; send a JSON object with a `query`.',
  ),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: answerWith(
    ErrorCode.BAD_REQUEST,
    'The request body does not match its Content-Length.',
  ),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: UNSUPPORTED_TYPE,
  FST_ERR_CTP_INVALID_TYPE: UNSUPPORTED_TYPE,
  FST_ERR_BAD_URL: answerWith(ErrorCode.BAD_REQUEST, 'The request URL is malformed.'),
};

/** Any other client error, by its status. */
const BY_STATUS: Readonly<Record<number, HttpAnswer>> = {
  404: NOT_FOUND,
  408: TIMEOUT,
  415: UNSUPPORTED_TYPE,
};

/** The answer to an error Fastify raised or a route threw (but not a body over the cap: see below). */
export function answerFor(error: FastifyError): HttpAnswer {
  const known = BY_FASTIFY_CODE[error.code];
  if (known !== undefined) return known;
  // The JSON parser's prototype-poisoning refusal: a SyntaxError with a 400 status and no Fastify code
  // (`exact-numbers-hook.ts` tells it from invalid JSON, which Fastify 5 answers alike).
  if (error instanceof SyntaxError) return FORBIDDEN_KEY;
  const status = error.statusCode ?? 500;
  if (status >= 500 || status < 400) return INTERNAL;
  return BY_STATUS[status] ?? { status, code: ErrorCode.BAD_REQUEST, message: 'The request is malformed.' };
}

/** Sends `answer` as a GraphQL-shaped error. */
export function sendAnswer(reply: FastifyReply, answer: HttpAnswer): FastifyReply {
  return reply.code(answer.status).type(JSON_CONTENT_TYPE).send(httpErrorBody(answer.code, answer.message));
}

const PROBED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/** The methods some route answers at `path` (a concrete path, no query string). */
function methodsAt(app: FastifyInstance, path: string): string[] {
  return PROBED_METHODS.filter((method) => app.hasRoute({ method, url: path }));
}

/**
 * Installs the root error handler and the not-found handler. A path that exists under another method is
 * answered 405 with an `Allow` header (RFC 9110), an unknown path 404 `NOT_FOUND`. Register before the
 * routes; routes may still set their own handlers.
 */
export function registerErrorHandler(app: FastifyInstance, options: ErrorHandlerOptions): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // The request bodies arriving at once filled `MAX_INFLIGHT_BODY_BYTES` (see `body-budget.ts`).
    if (error instanceof GatewayBusyError) {
      options.onRefused?.(request, ErrorCode.GATEWAY_BUSY, busyBlame(error.reason));
      return sendBusy(reply, error.reason);
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      options.onRefused?.(request, ErrorCode.BODY_TOO_LARGE, blameOfCode(ErrorCode.BODY_TOO_LARGE));
      return reply
        .code(httpStatusOf(ErrorCode.BODY_TOO_LARGE))
        .type(JSON_CONTENT_TYPE)
        .send(
          limitErrorBody(
            ErrorCode.BODY_TOO_LARGE,
            `The request body is larger than ${options.maxBodyBytes} bytes.`,
            'MAX_BODY_BYTES',
            options.maxBodyBytes,
          ),
        );
    }
    const answer = answerFor(error);
    if (answer.status >= 500) request.log.error({ err: error }, 'unhandled error');
    options.onRefused?.(request, answer.code, blameOfCode(answer.code));
    return sendAnswer(reply, answer);
  });

  app.setNotFoundHandler((request, reply) => {
    const queryAt = request.url.indexOf('?');
    const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
    const allowed = methodsAt(app, path);
    // A route that answers this method found nothing (`reply.callNotFound()`): the path is wrong, not the method.
    if (allowed.length === 0 || allowed.includes(request.method)) {
      options.onRefused?.(request, ErrorCode.NOT_FOUND, blameOfCode(ErrorCode.NOT_FOUND));
      return sendAnswer(reply, NOT_FOUND);
    }
    options.onRefused?.(request, ErrorCode.METHOD_NOT_ALLOWED, blameOfCode(ErrorCode.METHOD_NOT_ALLOWED));
    return sendAnswer(
      reply.header('allow', allowed.join(', ')),
      answerWith(
        ErrorCode.METHOD_NOT_ALLOWED,
        `The method ${request.method} is not allowed here (allowed: ${allowed.join(', ')}).`,
      ),
    );
  });
}
