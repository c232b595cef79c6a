/**
 * Cross-origin access for browser front-ends served from another origin (the `CORS_ORIGINS` setting).
 */
import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * Request headers a front-end may send cross-origin: the JSON body's content type, the session token, and
 * the headers Apollo Client and Apollo's CSRF prevention use.
 */
const CORS_ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'x-request-id',
] as const;

/** How long a browser may reuse a preflight answer: ten minutes, Chromium's own upper bound is two hours. */
const CORS_MAX_AGE_SECONDS = 600;

/**
 * Lets the listed origins (exact `scheme://host[:port]` strings) call the gateway from a browser, preflight
 * included. With no origin listed nothing is registered, so the gateway sends no CORS headers at all and
 * browsers keep the same-origin policy. Must run before the routes it covers are registered.
 *
 * Tokens travel in `Authorization`, never in cookies, so credentials stay off (`Access-Control-Allow-Credentials`
 * is not sent).
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  await app.register(fastifyCors, {
    // An array is matched exactly against the `Origin` header: no wildcard, no prefix match.
    origin: [...origins],
    methods: ['GET', 'POST'],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    // The request id lets a front-end quote a failed request; retry-after tells it when to retry.
    exposedHeaders: ['x-request-id', 'retry-after'],
    credentials: false,
    maxAge: CORS_MAX_AGE_SECONDS,
  });
}
