/**
 * The Apollo Server side of tracing. Names the request's server span after its GraphQL operation
 * (`graphql.operation.name`, `graphql.operation.type`), makes one INTERNAL operation span (`query Orders`)
 * from the start of execution to the response, under which the upstream calls hang, and records on the
 * server span a request refused before execution (a document that does not parse or validate, a limit, an
 * unknown persisted query): `error.type` set to the answered code, status error, an `exception` event of that
 * type. With `TRACE_RESOLVERS=true`, one span per resolved field under the operation span. Only codes and
 * names: an error's message may quote the caller's literals, and no variable value or literal is recorded.
 */
import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import { SpanKind, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { DocumentNode, GraphQLError, OperationDefinitionNode } from 'graphql';
import { isUpstreamError } from '../../errors/upstream-error.ts';
import { recordRefusal, SpanRequestTrace } from './request-span.ts';
import { markSpanFailed } from './span-failure.ts';
import type { RequestTrace } from './tracing.ts';

/** A GraphQL name: what a caller's `operationName` must look like to be put on a span. */
const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,127}$/;

/** Options of {@link createTracePlugin}. */
export interface TracePluginOptions {
  tracer: Tracer;
  /** The request's trace (from its scope). */
  traceOf: () => RequestTrace | undefined;
  /** `TRACE_RESOLVERS`: a span per resolved field. */
  traceResolvers: boolean;
}

/** The operation `document` runs: the one named `operationName`, or its only one. */
function operationOf(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | undefined {
  // Of the top-level definitions only an operation has `operation`.
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => 'operation' in definition,
  );
  if (operationName) return operations.find((operation) => operation.name?.value === operationName);
  return operations.length === 1 ? operations[0] : undefined;
}

/** Sets the operation's name and type on `span`. */
function nameOperation(span: Span, name: string | null | undefined, type: string | undefined): void {
  if (name && NAME.test(name)) span.setAttribute('graphql.operation.name', name);
  if (type !== undefined) span.setAttribute('graphql.operation.type', type);
}

/**
 * The code of a resolver's error: a GraphQL error's `extensions.code`, an upstream error's kind (as its
 * `upstream <operation>` span says it), else the error's class.
 */
function codeOf(error: GraphQLError | Error): string {
  if (isUpstreamError(error)) return error.kind;
  const code = 'extensions' in error ? error.extensions.code : undefined;
  return typeof code === 'string' ? code : error.name;
}

/** The plugin. */
export function createTracePlugin<TContext extends BaseContext>(
  options: TracePluginOptions,
): ApolloServerPlugin<TContext> {
  const { tracer, traceOf, traceResolvers } = options;

  function listener(request: SpanRequestTrace): GraphQLRequestListener<TContext> {
    const server = request.server;
    const recording = server.isRecording();
    let operation: Span | undefined;
    let name: string | undefined;
    let type: string | undefined;
    return {
      didResolveOperation(context) {
        name = context.operationName ?? undefined;
        type = context.operation?.operation;
        if (recording) nameOperation(server, name, type);
        return Promise.resolve();
      },
      executionDidStart() {
        const title =
          name !== undefined && NAME.test(name) ? `${type ?? 'query'} ${name}` : (type ?? 'query');
        operation = tracer.startSpan(title, { kind: SpanKind.INTERNAL }, request.parent);
        if (operation.isRecording()) nameOperation(operation, name, type);
        // From here the upstream calls' parent.
        request.parent = trace.setSpan(request.parent, operation);
        if (!traceResolvers || !operation.isRecording()) return Promise.resolve();
        const parent = request.parent;
        return Promise.resolve({
          willResolveField({ info }) {
            const field = tracer.startSpan(
              `resolve ${info.parentType.name}.${info.fieldName}`,
              { kind: SpanKind.INTERNAL },
              parent,
            );
            field.setAttributes({
              'graphql.field.name': info.fieldName,
              'graphql.field.type': String(info.returnType),
              'graphql.field.path': pathOf(info.path),
            });
            return (error) => {
              if (error !== null) {
                markSpanFailed(field, codeOf(error));
              }
              field.end();
            };
          },
        });
      },
      willSendResponse({ response, document, request: graphqlRequest }) {
        if (response.body.kind !== 'single') {
          operation?.end();
          return Promise.resolve();
        }
        const { errors, data } = response.body.singleResult;
        const code = errors?.[0]?.extensions?.code;
        const errorType = typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
        if (operation !== undefined) {
          if (errors !== undefined && errors.length > 0 && operation.isRecording()) {
            markSpanFailed(operation, errorType);
          }
          operation.end();
        } else if (data === undefined && errors !== undefined && errors.length > 0) {
          // Execution never started: the whole request was refused.
          if (recording) {
            const refused =
              document === undefined ? undefined : operationOf(document, graphqlRequest.operationName);
            nameOperation(server, refused?.name?.value ?? graphqlRequest.operationName, refused?.operation);
            recordRefusal(server, errorType);
          }
        }
        return Promise.resolve();
      },
    };
  }

  return {
    requestDidStart() {
      const request = traceOf();
      return Promise.resolve(request instanceof SpanRequestTrace ? listener(request) : undefined);
    },
  };
}

/** A field's path as text (`orders.nodes.0.customer`): names and list indexes, never a value. */
function pathOf(path: { prev: unknown; key: string | number } | undefined): string {
  const keys: (string | number)[] = [];
  for (let at = path; at !== undefined; at = at.prev as typeof path) keys.push(at.key);
  return keys.reverse().join('.');
}
