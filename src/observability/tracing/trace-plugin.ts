/**
 * The Apollo Server side of tracing: names the request's HTTP server span after its route and GraphQL
 * operation, and records on it a request refused before execution (a document that does not parse or
 * validate, a limit, an unknown persisted query): `error.type` set to the answered code, status error, an
 * `exception` event of that type, and the operation's name and type when the document says them. Only
 * codes and names: an error's message may quote the caller's literals.
 *
 * No value import of `graphql` here: this module loads before the instrumentation patches graphql-js.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { DocumentNode, OperationDefinitionNode } from 'graphql';

/** A GraphQL name: what a caller's `operationName` must look like to be put on a span. */
const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,127}$/;

/** The operation `document` runs: the one named `operationName`, or its only one. */
function operationOf(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | undefined {
  // Of the top-level definitions only an operation has `operation` (`Kind` is a value: not imported here).
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => 'operation' in definition,
  );
  if (operationName) return operations.find((operation) => operation.name?.value === operationName);
  return operations.length === 1 ? operations[0] : undefined;
}

/** Sets the operation's name and type on `span` (as graphql-js's execute span has them). */
function nameOperation(span: Span, name: string | undefined, type: string | undefined): void {
  if (name !== undefined && NAME.test(name)) span.setAttribute('graphql.operation.name', name);
  if (type !== undefined) span.setAttribute('graphql.operation.type', type);
}

/**
 * Records on `span` (a request's server span) a refusal answered with `code`: `error.type`, an `exception`
 * event of that type and status error; the code only, never a message.
 */
export function recordRefusal(span: Span, code: string): void {
  span.setAttribute('error.type', code);
  span.addEvent('exception', { 'exception.type': code });
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
}

/** The plugin; `graphqlPath` is the route (`/graphql`). */
export function createTracePlugin<TContext extends BaseContext>(
  graphqlPath: string,
): ApolloServerPlugin<TContext> {
  return {
    requestDidStart({ request }) {
      const span = trace.getActiveSpan();
      if (span === undefined) return Promise.resolve();
      span.setAttribute('http.route', graphqlPath);
      span.updateName(`${request.http?.method ?? 'POST'} ${graphqlPath}`);
      return Promise.resolve({
        didResolveOperation({ operationName, operation }) {
          nameOperation(span, operationName ?? undefined, operation?.operation);
          return Promise.resolve();
        },
        willSendResponse({ response, document }) {
          if (response.body.kind !== 'single') return Promise.resolve();
          const result = response.body.singleResult;
          // Execution never started: the whole request was refused.
          if (result.data !== undefined || result.errors === undefined || result.errors.length === 0) {
            return Promise.resolve();
          }
          const code = result.errors[0]?.extensions?.code;
          const type = typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
          const operation = document === undefined ? undefined : operationOf(document, request.operationName);
          nameOperation(
            span,
            operation?.name?.value ?? request.operationName ?? undefined,
            operation?.operation,
          );
          recordRefusal(span, type);
          return Promise.resolve();
        },
      });
    },
  };
}
