/**
 * What the response says of the response cache, and the cache's last word on a request: an answer holding
 * a stale entry (served past its `maxAge` while the upstream failed) says so in `extensions.cache`
 * (`{ stale: true, ageSeconds }`, the oldest one's age) and in the `X-Gateway-Cache: stale` and `Age`
 * headers, so no client takes it for current; a request that wrote replaces its types' versions once more
 * (`RequestCache.settle`).
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLContext } from '../graphql/context.ts';

/** The header that marks an answer holding stale entries. */
export const STALE_HEADER = 'x-gateway-cache';

/** The plugin (see the module comment). */
export function createCacheReportPlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    requestDidStart: () =>
      Promise.resolve({
        async willSendResponse({ contextValue, response }) {
          const cache = contextValue.responseCache;
          if (cache === undefined) return;
          await cache.settle();
          const report = cache.staleReport();
          if (report === undefined) return;
          response.http.headers.set(STALE_HEADER, 'stale');
          response.http.headers.set('age', String(report.ageSeconds));
          if (response.body.kind === 'single') {
            const result = response.body.singleResult;
            result.extensions = { ...result.extensions, cache: report };
          }
        },
      }),
  };
}
