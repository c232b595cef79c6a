/**
 * The headers the gateway adds to answers, in one `onSend` hook: `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff` on every answer of the GraphQL endpoint (results, errors: Fastify's,
 * Apollo's and ours, the landing page, `GET` queries included), and `Connection: close` on every answer
 * while the gateway drains (an idle keep-alive socket would hold its close open).
 */
import type { FastifyInstance } from 'fastify';
import { NO_STORE_HEADERS } from '../errors/http-error.ts';

/** Options of {@link registerResponseHeaders}. */
export interface ResponseHeadersOptions {
  /** The GraphQL endpoint's path. */
  path: string;
  /** Whether the gateway is draining (read once per answer, a field, no call). */
  draining: { readonly active: boolean };
}

/**
 * Adds the hook: the headers reach every response whose path is `path`, whatever route (or none) answered
 * it (a wrong method on `/graphql` is answered by the not-found handler). Register before the routes.
 */
export function registerResponseHeaders(app: FastifyInstance, options: ResponseHeadersOptions): void {
  const { path, draining } = options;
  const withQuery = `${path}?`;
  app.addHook('onSend', (request, reply, _payload, done) => {
    const url = request.url;
    if (url === path || url.startsWith(withQuery)) void reply.headers(NO_STORE_HEADERS);
    if (draining.active) void reply.header('connection', 'close');
    done();
  });
}
