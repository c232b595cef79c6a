/**
 * `Cache-Control: no-store` and `X-Content-Type-Options: nosniff` on every answer of the GraphQL endpoint:
 * results, errors (Fastify's, Apollo's and ours), the landing page, `GET` queries included.
 */
import type { FastifyInstance } from 'fastify';
import { NO_STORE_HEADERS } from '../errors/http-error.ts';

/**
 * Adds the headers to every response whose path is `path`, whatever route (or none) answered it: a wrong
 * method on `/graphql` is answered by the not-found handler. Register before the routes.
 */
export function registerGraphqlHeaders(app: FastifyInstance, path: string): void {
  const withQuery = `${path}?`;
  app.addHook('onSend', (request, reply, _payload, done) => {
    if (request.url === path || request.url.startsWith(withQuery)) void reply.headers(NO_STORE_HEADERS);
    done();
  });
}
