/**
 * What the response says of the response cache, and the cache's last word on a request: an answer holding
 * a stale entry (served past its `maxAge` while the upstream failed) says so in `extensions.cache`
 * (`{ stale: true, ageSeconds }`, the oldest one's age) and in the `X-Gateway-Cache: stale` and `Age`
 * headers, so no client takes it for current; a request that wrote replaces its types' versions once more
 * (`RequestCache.settle`). With `CACHE_HTTP=private`, a `GET` answer without errors whose every upstream read
 * was answered under a type's policy says `Cache-Control: private, max-age=<the least freshness left among
 * them>` (`response-headers.ts` keeps it and adds `Vary: Authorization`); every other answer stays `no-store`.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLContext } from '../graphql/context.ts';
import { privateCacheControl } from '../http/response-headers.ts';

/** The header that marks an answer holding stale entries. */
export const STALE_HEADER = 'x-gateway-cache';

/** Options of {@link createCacheReportPlugin}. */
export interface CacheReportOptions {
  /** `CACHE_HTTP`: whether a `GET` answer may tell the caller's own HTTP cache how long it stays fresh. */
  http: 'no-store' | 'private';
}

/** The plugin (see the module comment). */
export function createCacheReportPlugin(options: CacheReportOptions): ApolloServerPlugin<GraphQLContext> {
  return {
    requestDidStart: () =>
      Promise.resolve({
        async willSendResponse({ contextValue, request, response }) {
          const cache = contextValue.responseCache;
          if (cache === undefined) return;
          await cache.settle();
          if (
            options.http === 'private' &&
            request.http?.method === 'GET' &&
            response.body.kind === 'single'
          ) {
            const { status } = response.http;
            const fresh = cache.freshSeconds();
            if (
              response.body.singleResult.errors === undefined &&
              (status ?? 200) === 200 &&
              fresh !== undefined
            ) {
              response.http.headers.set('cache-control', privateCacheControl(fresh));
            }
          }
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
