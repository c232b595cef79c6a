/**
 * Redirects that take a browser to the explorers: `GET /` to the landing page (Apollo Sandbox on
 * `/graphql`), and the trailing-slash spellings `/graphql/` and `/graphiql/` to the real paths. Without
 * them a first visit to the gateway's root, or a pasted URL with a slash, meets a bare 404.
 *
 * Every `Location` is relative, so a path prefix added by a proxy in front of the gateway is kept. The
 * slash redirects are 308 (method and body kept), so a `POST /graphql/` still reaches GraphQL.
 */
import type { FastifyInstance } from 'fastify';

/** Options of {@link registerExplorerRedirects}. */
export interface ExplorerRedirectsOptions {
  /** Whether GraphiQL is served at `/graphiql` (it follows the landing page setting). */
  graphiql: boolean;
}

/** Registers the redirects; call only when the landing page is on (development, or `LANDING_PAGE=true`). */
export function registerExplorerRedirects(app: FastifyInstance, options: ExplorerRedirectsOptions): void {
  app.get('/', (_request, reply) => reply.code(302).header('location', 'graphql').send());
  app.route({
    method: ['GET', 'POST'],
    url: '/graphql/',
    handler: (_request, reply) => reply.code(308).header('location', '../graphql').send(),
  });
  if (options.graphiql) {
    app.get('/graphiql/', (_request, reply) => reply.code(308).header('location', '../graphiql').send());
  }
}
