/**
 * `MAX_UPSTREAM_CALLS_PER_REQUEST`, before execution: an Apollo Server plugin that estimates the upstream
 * calls of each operation (`upstream-call-estimate.ts`) once its document, operation and variables are known
 * (`didResolveOperation`; validation rules never see the variables) and refuses, with HTTP 400 and
 * `MAX_UPSTREAM_CALLS_EXCEEDED`, an operation estimated over the setting. No resolver runs, so a refused
 * fan-out costs the upstream, and the other tenants, nothing. The run-time budget still counts the real calls.
 */
import type { ApolloServerPlugin, BaseContext, GraphQLRequestListener } from '@apollo/server';
import {
  Kind,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type TypeNode,
} from 'graphql';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { idsPerBatch } from '../upstream/batching/loaders.ts';
import { ErrorCode } from '../errors/error-codes.ts';
import { limitError } from '../errors/graphql-errors.ts';
import { estimateUpstreamCalls } from './upstream-call-estimate.ts';
import { upstreamCallKinds, type UpstreamCallKinds } from './upstream-call-kinds.ts';

/** The settings the estimate depends on. */
export type UpstreamCallLimitSettings = Pick<
  GatewayConfig,
  'maxUpstreamCallsPerRequest' | 'defaultPageSize' | 'maxPageSize' | 'matchesMode' | 'upstreamMaxPageSize'
>;

const SETTING = 'MAX_UPSTREAM_CALLS_PER_REQUEST';

function refusal(estimated: number, max: number) {
  const tooLarge = !Number.isFinite(estimated);
  const what = tooLarge
    ? 'This operation expands to too many fields to estimate its upstream calls'
    : `This operation would make about ${estimated} upstream calls`;
  return limitError(
    ErrorCode.MAX_UPSTREAM_CALLS_EXCEEDED,
    `${what}; at most ${max} are allowed per request. Ask for smaller pages (first/last), use fewer aliased ` +
      'page fields, and do not select metadata on every object of a large page.',
    SETTING,
    max,
    { ...(tooLarge ? {} : { estimated }), http: { status: 400 } },
  );
}

/** The plugin, for Apollo Server's `plugins`. */
export function createUpstreamCallLimit<TContext extends BaseContext>(
  settings: UpstreamCallLimitSettings,
): ApolloServerPlugin<TContext> {
  const max = settings.maxUpstreamCallsPerRequest;
  const pageLimits = {
    defaultPageSize: settings.defaultPageSize,
    maxPageSize: settings.maxPageSize,
    upstreamMaxPageSize: settings.upstreamMaxPageSize,
  };
  // In `exact` mode every id is its own upstream read (`batch-by-id.ts`).
  const idsPerCall = settings.matchesMode === 'exact' ? 1 : idsPerBatch(settings.upstreamMaxPageSize);
  // The walk was a tenth of a small request's CPU. Only numbers are kept: `undefined` (variables that do
  // not fit) says something about one request, not about the document.
  const estimates = operationEstimates<number>();

  // One listener for every request: it keeps no per-request state.
  const listener: GraphQLRequestListener<TContext> = {
    didResolveOperation({ schema, document, operation, request }) {
      // No operation to run (an unknown operation name): execution answers that, with no call.
      if (operation === undefined) return Promise.resolve();
      const key = estimateKey(operation, request.variables);
      let estimated = estimates.get(document, key);
      if (estimated === undefined) {
        estimated = estimateUpstreamCalls({
          schema,
          kinds: estimates.kinds(schema),
          document,
          operationName: operation.name?.value,
          variables: request.variables,
          pageLimits,
          idsPerCall,
        });
        if (estimated !== undefined) estimates.remember(document, key, estimated);
      }
      return estimated !== undefined && estimated > max
        ? Promise.reject(refusal(estimated, max))
        : Promise.resolve();
    },
  };
  const started = Promise.resolve(listener);
  return { requestDidStart: () => started };
}

/** The named type under list and non-null wrappers. */
function namedTypeOf(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);
}

/** Distinct variable values remembered per document: a client cycling through page sizes stays bounded. */
const MAX_KEYS_PER_DOCUMENT = 64;
/** Longest key remembered; a longer one (a huge variable) is estimated every time. */
const MAX_KEY_LENGTH = 256;

/**
 * What a plugin that estimates operations before execution keeps between requests: the schema's upstream
 * call kinds, classified once per schema, and one estimate per parsed document (Apollo keeps one document
 * object per query text) and {@link estimateKey}, at most {@link MAX_KEYS_PER_DOCUMENT} per document.
 */
export function operationEstimates<T>() {
  const kindsOf = new WeakMap<GraphQLSchema, UpstreamCallKinds>();
  const known = new WeakMap<DocumentNode, Map<string, T>>();
  return {
    kinds(schema: GraphQLSchema): UpstreamCallKinds {
      let kinds = kindsOf.get(schema);
      if (kinds === undefined) {
        kinds = upstreamCallKinds(schema);
        kindsOf.set(schema, kinds);
      }
      return kinds;
    },
    /** The estimate remembered for `key` (`undefined`: none, or a key too long to remember). */
    get(document: DocumentNode, key: string | undefined): T | undefined {
      return key === undefined ? undefined : known.get(document)?.get(key);
    },
    remember(document: DocumentNode, key: string | undefined, estimate: T): void {
      if (key === undefined) return;
      let byKey = known.get(document);
      if (byKey === undefined) {
        byKey = new Map<string, T>();
        known.set(document, byKey);
      }
      if (byKey.size < MAX_KEYS_PER_DOCUMENT) byKey.set(key, estimate);
    },
  };
}

/**
 * What the estimate of `operation` depends on besides its document: its name and the values of its `Int`
 * (`first`, `last`), `String` (the cursors `after` and `before`: the same page size may straddle two
 * upstream pages) and `Boolean` (`@skip`, `@include`) variables. `ID` and input-object variables (ids,
 * filters) never change it. `undefined`: too long to remember.
 */
export function estimateKey(
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  let key = operation.name?.value ?? '';
  for (const definition of operation.variableDefinitions ?? []) {
    const type = namedTypeOf(definition.type);
    if (type !== 'Int' && type !== 'String' && type !== 'Boolean') continue;
    key += `\u0000${JSON.stringify(variables?.[definition.variable.name.value] ?? null)}`;
    if (key.length > MAX_KEY_LENGTH) return undefined;
  }
  return key;
}
