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
import { limitErrorBody } from '../errors/graphql-errors.ts';
import { GatewayBusyError, busyBlame, sendBusy } from './capacity/busy-answer.ts';
import { JSON_CONTENT_TYPE, httpErrorBody } from '../errors/http-error.ts';

/** Options of {@link registerErrorHandler}. */
export interface ErrorHandlerOptions {
  /** `MAX_BODY_BYTES`, quoted in `BODY_TOO_LARGE`. */
  maxBodyBytes: number;
  /** Called with every refusal's code (the request log's outcome, metrics) and, when it is not the caller's, blame. */
  onRefused?: (request: FastifyRequest, code: string, blame?: string) => void;
}

/** What an error becomes on the wire. */
export interface HttpAnswer {
  status: number;
  code: string;
  message: string;
}

const BAD_JSON: HttpAnswer = {
  status: 400,
  code: ErrorCode.BAD_REQUEST,
  message: 'The request body is not valid JSON.',
};
const UNSUPPORTED_TYPE: HttpAnswer = {
  status: 415,
  code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  message: 'Unsupported content type: send the operation as application/json.',
};
const FORBIDDEN_KEY: HttpAnswer = {
  status: 400,
  code: ErrorCode.BAD_REQUEST,
  message: 'The request body holds a forbidden key (`__proto__` or `constructor.prototype`).',
};
const NOT_FOUND: HttpAnswer = { status: 404, code: ErrorCode.NOT_FOUND, message: 'Not found.' };
const TIMEOUT: HttpAnswer = {
  status: 408,
  code: ErrorCode.REQUEST_TIMEOUT,
  message: 'The request took too long to arrive.',
};
const INTERNAL: HttpAnswer = {
  status: 500,
  code: ErrorCode.INTERNAL_SERVER_ERROR,
  message: 'Internal server error.',
};

/** Fastify's own errors, by their code. */
const BY_FASTIFY_CODE: Readonly<Record<string, HttpAnswer>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: BAD_JSON,
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: ErrorCode.BAD_REQUEST,
    message: 'The request body is empty; send a JSON object with a `query`.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: ErrorCode.BAD_REQUEST,
    message: 'The request body does not match its Content-Length.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: UNSUPPORTED_TYPE,
  FST_ERR_CTP_INVALID_TYPE: UNSUPPORTED_TYPE,
  FST_ERR_BAD_URL: { status: 400, code: ErrorCode.BAD_REQUEST, message: 'The request URL is malformed.' },
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
  // The JSON parser's prototype-poisoning refusal is a SyntaxError with a 400 status and no Fastify code.
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
      options.onRefused?.(request, ErrorCode.BODY_TOO_LARGE);
      return reply
        .code(413)
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
    options.onRefused?.(request, answer.code);
    return sendAnswer(reply, answer);
  });

  app.setNotFoundHandler((request, reply) => {
    const queryAt = request.url.indexOf('?');
    const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
    const allowed = methodsAt(app, path);
    // A route that answers this method found nothing (`reply.callNotFound()`): the path is wrong, not the method.
    if (allowed.length === 0 || allowed.includes(request.method)) {
      options.onRefused?.(request, ErrorCode.NOT_FOUND);
      return sendAnswer(reply, NOT_FOUND);
    }
    options.onRefused?.(request, ErrorCode.METHOD_NOT_ALLOWED);
    return sendAnswer(reply.header('allow', allowed.join(', ')), {
      status: 405,
      code: ErrorCode.METHOD_NOT_ALLOWED,
      message: `The method ${request.method} is not allowed here (allowed: ${allowed.join(', ')}).`,
    });
  });
}
