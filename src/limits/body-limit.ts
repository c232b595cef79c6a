/**
 * The request body cap (`MAX_BODY_BYTES`, Fastify's `bodyLimit`): a larger body is answered 413 with a
 * GraphQL-shaped error coded `BODY_TOO_LARGE`, instead of Fastify's generic error object, so a GraphQL
 * client can show what went wrong. Fastify refuses on `content-length` before reading, or as soon as a
 * chunked body passes the cap, so a large body costs no memory.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LimitCode, limitErrorBody } from './limit-error.ts';

/** Installs the root error handler; every other error goes on to Fastify's default handler. */
export function registerBodyLimitError(
  app: FastifyInstance,
  maxBytes: number,
  onRefused?: (request: FastifyRequest) => void,
): void {
  app.setErrorHandler((error, request, reply) => {
    if ((error as { code?: unknown }).code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
    onRefused?.(request);
    return reply
      .code(413)
      .type('application/json; charset=utf-8')
      .send(
        limitErrorBody(
          LimitCode.BODY_TOO_LARGE,
          `The request body is larger than ${maxBytes} bytes.`,
          'MAX_BODY_BYTES',
          maxBytes,
        ),
      );
  });
}
