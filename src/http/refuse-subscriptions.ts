/**
 * Subscriptions need a transport that stays open (WebSocket, SSE); the gateway serves single answers over
 * HTTP only. Left alone, graphql-js fails a `subscription` during execution and it reaches the caller as
 * `INTERNAL_SERVER_ERROR`, blaming the gateway for the caller's request.
 */
import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { OperationTypeNode } from 'graphql';
import { badRequest } from '../errors/graphql-errors.ts';

/** The refusal's message. */
const SUBSCRIPTIONS_NOT_SUPPORTED =
  'Subscriptions are not supported: this gateway answers queries and mutations over HTTP only.';

/**
 * An Apollo plugin that refuses the chosen operation with HTTP 400 and `BAD_REQUEST` when it is a
 * `subscription`, once it is known (after validation, before execution). A document that also holds a
 * subscription may still run its query or mutation.
 */
export function refuseSubscriptions<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  // One listener for every request: it keeps no per-request state.
  const listener: GraphQLRequestListener<TContext> = {
    didResolveOperation({ operation }) {
      if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) return Promise.resolve();
      return Promise.reject(badRequest(SUBSCRIPTIONS_NOT_SUPPORTED));
    },
  };
  return { requestDidStart: () => Promise.resolve(listener) };
}
