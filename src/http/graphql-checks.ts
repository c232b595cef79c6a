/**
 * The checks of a GraphQL request at the HTTP edge, once its body is parsed and before Apollo hashes,
 * parses or runs anything, in one `preValidation` hook: each check answers a refusal or nothing, the first
 * refusal is sent. One hook for all of them, and none of them for any other route.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JSON_CONTENT_TYPE } from '../errors/http-error.ts';

/** How a refused request is answered. */
export interface Refusal {
  status: number;
  /** The error code, for the request log's outcome. */
  code: string;
  /** The JSON body. */
  body: unknown;
}

/** One check: a refusal, or `undefined` to let the request go on (it may rewrite the request). */
export type GraphqlCheck = (request: FastifyRequest) => Refusal | undefined;

/** Options of {@link registerGraphqlChecks}. */
export interface GraphqlChecksOptions {
  /** The GraphQL route (`/graphql`). */
  path: string;
  /** In order; a check sees the request as the ones before it left it. */
  checks: readonly GraphqlCheck[];
  /** Called with every refusal's code (the request log's outcome). */
  onRefused?: (request: FastifyRequest, code: string) => void;
}

/** Adds the hook (after body parsing, before the route's handler). */
export function registerGraphqlChecks(app: FastifyInstance, options: GraphqlChecksOptions): void {
  const { path, checks, onRefused } = options;
  app.addHook('preValidation', (request, reply, done) => {
    if (request.routeOptions.url !== path) {
      done();
      return;
    }
    for (const check of checks) {
      const refusal = check(request);
      if (refusal === undefined) continue;
      onRefused?.(request, refusal.code);
      void reply.code(refusal.status).type(JSON_CONTENT_TYPE).send(refusal.body);
      return;
    }
    done();
  });
}
