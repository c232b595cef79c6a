/**
 * `MAX_UPSTREAM_CALLS_PER_REQUEST`, before execution: an Apollo Server plugin that estimates the upstream
 * calls of each operation (`upstream-call-estimate.ts`) once its document, operation and variables are known
 * (`didResolveOperation`; validation rules never see the variables) and refuses, with HTTP 400 and
 * `MAX_UPSTREAM_CALLS_EXCEEDED`, an operation estimated over the setting. No resolver runs, so a refused
 * fan-out costs the upstream, and the other tenants, nothing. The run-time budget still counts the real calls.
 */
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import {
  Kind,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type TypeNode,
} from 'graphql';
import type { GatewayConfig } from '../config.ts';
import type { Blame } from '../upstream/errors.ts';
import { MAX_IDS_PER_BATCH } from '../upstream/loaders.ts';
import { LimitCode, limitError } from './limit-error.ts';
import { estimateUpstreamCalls } from './upstream-call-estimate.ts';
import { upstreamCallKinds, type UpstreamCallKinds } from './upstream-call-kinds.ts';

/** The settings the estimate depends on. */
export type UpstreamCallLimitSettings = Pick<
  GatewayConfig,
  'maxUpstreamCallsPerRequest' | 'defaultPageSize' | 'maxPageSize' | 'matchesMode'
>;

const SETTING = 'MAX_UPSTREAM_CALLS_PER_REQUEST';
/** The operation is the caller's to change, as with the run-time budget's refusal of the same code. */
const BLAME: Blame = 'caller';

function refusal(estimated: number, max: number) {
  const tooLarge = !Number.isFinite(estimated);
  const what = tooLarge
    ? 'This operation expands to too many fields to estimate its upstream calls'
    : `This operation would make about ${estimated} upstream calls`;
  return limitError(
    LimitCode.MAX_UPSTREAM_CALLS_EXCEEDED,
    `${what}; at most ${max} are allowed per request. Ask for smaller pages (first/last), use fewer aliased ` +
      'page fields, and do not select metadata on every object of a large page.',
    SETTING,
    max,
    { ...(tooLarge ? {} : { estimated }), blame: BLAME, http: { status: 400 } },
  );
}

/** The plugin, for Apollo Server's `plugins`. */
export function createUpstreamCallLimit<TContext extends BaseContext>(
  settings: UpstreamCallLimitSettings,
): ApolloServerPlugin<TContext> {
  const max = settings.maxUpstreamCallsPerRequest;
  const pageLimits = { defaultPageSize: settings.defaultPageSize, maxPageSize: settings.maxPageSize };
  // In `exact` mode every id is its own upstream read (`batch-by-id.ts`).
  const idsPerCall = settings.matchesMode === 'exact' ? 1 : MAX_IDS_PER_BATCH;
  // Classified once per schema, not per request.
  const kindsOf = new WeakMap<GraphQLSchema, UpstreamCallKinds>();
  // Estimates that no variable can change, per parsed document (Apollo keeps one document object per query
  // text) and operation: the walk was a tenth of a small request's CPU. Only numbers are kept: `undefined`
  // (variables that do not fit) says something about one request's variables, not about the document.
  const known = new WeakMap<DocumentNode, Map<string, number>>();
  return {
    requestDidStart() {
      return Promise.resolve({
        didResolveOperation({ schema, document, operation, request }) {
          // No operation to run (an unknown operation name): execution answers that, with no call.
          if (operation === undefined) return Promise.resolve();
          let kinds = kindsOf.get(schema);
          if (kinds === undefined) {
            kinds = upstreamCallKinds(schema);
            kindsOf.set(schema, kinds);
          }
          const operationName = operation.name?.value ?? '';
          const cacheable = !readsCountOrFlagVariables(operation);
          let estimated = cacheable ? known.get(document)?.get(operationName) : undefined;
          if (estimated === undefined) {
            estimated = estimateUpstreamCalls({
              schema,
              kinds,
              document,
              operationName: operation.name?.value,
              variables: request.variables,
              pageLimits,
              idsPerCall,
            });
            if (cacheable && estimated !== undefined) {
              let byOperation = known.get(document);
              if (byOperation === undefined) {
                byOperation = new Map();
                known.set(document, byOperation);
              }
              byOperation.set(operationName, estimated);
            }
          }
          return estimated !== undefined && estimated > max
            ? Promise.reject(refusal(estimated, max))
            : Promise.resolve();
        },
      });
    },
  };
}

/** The named type under list and non-null wrappers. */
function namedTypeOf(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);
}

/**
 * Whether a variable could change the estimate: only `Int` (`first`, `last`) and `Boolean` (`@skip`,
 * `@include`) values feed it; `String`, `ID` and input objects (names, ids, filters) never do.
 */
function readsCountOrFlagVariables(operation: OperationDefinitionNode): boolean {
  return (operation.variableDefinitions ?? []).some((definition) => {
    const name = namedTypeOf(definition.type);
    return name === 'Int' || name === 'Boolean';
  });
}
