/**
 * The headers the gateway adds to answers, in one `onSend` hook: `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff` on every answer of the GraphQL endpoint (results, errors: Fastify's,
 * Apollo's and ours, the landing page, `GET` queries included), and `Connection: close` on every answer
 * while the gateway drains (an idle keep-alive socket would hold its close open).
 *
 * One exception, with `CACHE_HTTP=private` only: a `GET` answer the response cache found fresh for a while
 * (`cache-report-plugin.ts`: every read of it answered under a type's policy, no error, nothing stale) keeps
 * the `Cache-Control: private, max-age=<seconds>` it earned, with `Vary: Authorization`. Never `public`: an
 * answer is the caller's (its token's account and organization), and a shared cache cannot key by them.
 */
import type { FastifyInstance } from 'fastify';
import { NO_STORE_HEADERS } from '../errors/http-error.ts';

/** The `Cache-Control` of an answer fresh for `seconds` more, for its caller's own cache only. */
export function privateCacheControl(seconds: number): string {
  return `private, max-age=${seconds}`;
}

const PRIVATE_CACHE_CONTROL = /^private, max-age=[1-9]\d*$/;

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
    if (url === path || url.startsWith(withQuery)) {
      const earned = request.method === 'GET' ? reply.getHeader('cache-control') : undefined;
      void reply.headers(NO_STORE_HEADERS);
      if (typeof earned === 'string' && PRIVATE_CACHE_CONTROL.test(earned)) {
        const vary = reply.getHeader('vary');
        void reply
          .header('cache-control', earned)
          .header(
            'vary',
            typeof vary === 'string' && vary !== '' ? `${vary}, Authorization` : 'Authorization',
          );
      }
    }
    if (draining.active) void reply.header('connection', 'close');
    done();
  });
}
