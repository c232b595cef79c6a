/**
 * The Apollo Server side of the request log: records the operation's name and type and the codes and
 * blames of the errors in its response into the request's scope, which the HTTP layer logs and measures at
 * the end. One hook, `willSendResponse`, on one listener shared by every request: by then Apollo's request
 * context holds the resolved operation, or the caller's operation name when the document never resolved.
 */
import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { Kind, type DocumentNode } from 'graphql';
import type { RequestScopes } from './request-scope.ts';
import type { RequestTenant } from './request-tenant.ts';

/** The plugin; `scopes` is the gateway's request storage, `tenantOf` reads a request's tenant off its context. */
export function createRequestLogPlugin<TContext extends BaseContext>(
  scopes: RequestScopes,
  onDialectMismatch?: (mismatch: { assumption: string; setting: string; message: string }) => void,
  tenantOf?: (context: TContext) => RequestTenant | undefined,
): ApolloServerPlugin<TContext> {
  const listener: GraphQLRequestListener<TContext> = {
    willSendResponse({ request, operation, operationName, document, response, contextValue }) {
      const scope = scopes.current();
      if (scope === undefined) return Promise.resolve();
      // Whose request it was, for its line and its span: on-call's first question in a multi-tenant outage.
      scope.tenant = tenantOf?.(contextValue);
      if (scope.tenant !== undefined) scope.trace?.tenant(scope.tenant);
      // `operationName` is `null` or a name once Apollo has looked for the operation, `undefined` before:
      // for a document that never validated, the caller's word stands, else the name the document gives
      // (a named operation that fails validation is a named one: `other` in the metrics, not `anonymous`).
      scope.operationName =
        operationName === undefined
          ? (request.operationName ?? soleOperationName(document))
          : (operationName ?? undefined);
      scope.operationType = operation?.operation;
      if (response.body.kind === 'single') {
        const errors = response.body.singleResult.errors ?? [];
        scope.errorCodes = errors.map((error) =>
          typeof error.extensions?.code === 'string' ? error.extensions.code : 'UNKNOWN',
        );
        // Every formatted error says whose fault it is (`format-error.ts`): the line's level follows it.
        scope.errorBlames = errors.flatMap((error) =>
          typeof error.extensions?.blame === 'string' ? [error.extensions.blame] : [],
        );
        if (onDialectMismatch !== undefined) reportDialectMismatches(errors, onDialectMismatch);
      }
      return Promise.resolve();
    },
  };
  const started = Promise.resolve(listener);
  const none = Promise.resolve(undefined);
  // No listener for a request outside a scope (none is kept for it).
  return { requestDidStart: () => (scopes.current() === undefined ? none : started) };
}

/** The name of `document`'s only operation, if it has one and it is named. */
function soleOperationName(document: DocumentNode | undefined): string | undefined {
  const operations = document?.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION) ?? [];
  return operations.length === 1 ? operations[0]?.name?.value : undefined;
}

/** Tells `report` of each `UPSTREAM_DIALECT_MISMATCH` among `errors` (the listener logs each assumption once). */
function reportDialectMismatches(
  errors: readonly { message: string; extensions?: Record<string, unknown> | undefined }[],
  report: (mismatch: { assumption: string; setting: string; message: string }) => void,
): void {
  for (const { message, extensions } of errors) {
    if (extensions?.code !== 'UPSTREAM_DIALECT_MISMATCH') continue;
    const { assumption, setting } = extensions;
    if (typeof assumption === 'string' && typeof setting === 'string')
      report({ assumption, setting, message });
  }
}
