/**
 * The Apollo Server side of the request log: records the operation's name and type and the codes and
 * blames of the errors in its response into the request's scope, which the HTTP layer logs and measures at the end.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { RequestScopes } from './request-scope.ts';

/** The plugin; `scopes` is the gateway's request storage. */
export function createRequestLogPlugin<TContext extends BaseContext>(
  scopes: RequestScopes,
): ApolloServerPlugin<TContext> {
  return {
    requestDidStart(requestContext) {
      const scope = scopes.current();
      if (scope === undefined) return Promise.resolve();
      // Known even when the document never parses or validates; replaced by the resolved one below.
      scope.operationName = requestContext.request.operationName ?? undefined;
      return Promise.resolve({
        didResolveOperation({ operationName, operation }) {
          scope.operationName = operationName ?? undefined;
          scope.operationType = operation?.operation;
          return Promise.resolve();
        },
        willSendResponse({ response }) {
          if (response.body.kind === 'single') {
            const errors = response.body.singleResult.errors ?? [];
            scope.errorCodes = errors.map((error) =>
              typeof error.extensions?.code === 'string' ? error.extensions.code : 'UNKNOWN',
            );
            // Every formatted error says whose fault it is (`format-error.ts`): the line's level follows it.
            scope.errorBlames = errors.flatMap((error) =>
              typeof error.extensions?.blame === 'string' ? [error.extensions.blame] : [],
            );
          }
          return Promise.resolve();
        },
      });
    },
  };
}
