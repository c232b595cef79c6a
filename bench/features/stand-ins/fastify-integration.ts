/**
 * Stand-in (feature `fastify`) for `@as-integrations/fastify`: the same `/graphql` route as a plain Fastify
 * route calling Apollo's `executeHTTPGraphQLRequest`, without the package's per-request `new URL(...)` and
 * header copy through `Object.entries`. The drain plugin is the package's own.
 */
import { Readable } from 'node:stream';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import type { ApolloFastifyPluginOptions } from '@as-integrations/fastify';
import type * as Real from '@as-integrations/fastify';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';

export * from '@as-integrations/fastify';

function headerMapOf(request: FastifyRequest): HeaderMap {
  const map = new HeaderMap();
  const { headers } = request;
  for (const key in headers) {
    const value = headers[key];
    if (value !== undefined && value !== '') map.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  return map;
}

function fastifyApollo<Context extends BaseContext>(
  apollo: ApolloServer<Context>,
): FastifyPluginAsync<ApolloFastifyPluginOptions<Context>> {
  const plugin: FastifyPluginAsync<ApolloFastifyPluginOptions<Context>> = (app, options) => {
    const { path = '/graphql', method = ['GET', 'POST', 'OPTIONS'], context } = options;
    if (context === undefined) throw new Error('the gateway always passes a context function');
    app.route({
      method,
      url: path,
      async handler(request, reply) {
        const queryAt = request.url.indexOf('?');
        const response = await apollo.executeHTTPGraphQLRequest({
          httpGraphQLRequest: {
            method: request.method,
            headers: headerMapOf(request),
            search: queryAt === -1 ? '' : request.url.slice(queryAt),
            body: request.body,
          },
          context: () => context(request, reply),
        });
        for (const [name, value] of response.headers) void reply.header(name, value);
        void reply.code(response.status ?? 200);
        if (response.body.kind === 'complete') return response.body.string;
        return reply.send(Readable.from(response.body.asyncIterator));
      },
    });
    return Promise.resolve();
  };
  // What `fastify-plugin` does: the route joins the parent's context, under the hooks registered before it.
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}

/** The plain route in place of the package's plugin (typed as the package's, so drift fails the type check). */
const standIn: typeof Real.default = fastifyApollo;
export default standIn;
