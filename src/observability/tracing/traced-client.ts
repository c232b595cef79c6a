/**
 * The upstream client with one span per call (`GatewayTracing.upstreamCall`), wrapped around the resilient
 * client so that a span covers the call's retries and its wait for a slot. Used only when tracing is on.
 */
import type { ResilientClient } from '../../upstream/resilience/resilience.ts';
import type { GatewayTracing, RequestTrace } from './tracing.ts';
import { OPERATION_LIST, wrapOperations } from '../../upstream/operations.ts';

/**
 * Wraps `client`: every operation (`UPSTREAM_OPERATIONS`) runs in its span under the trace of the request
 * that asked (`traceOf`: the request's scope); the batch size is the records asked for.
 */
export function withTracing(
  client: ResilientClient,
  tracing: GatewayTracing,
  traceOf: () => RequestTrace | undefined,
): ResilientClient {
  return {
    ...client,
    ...wrapOperations(client, OPERATION_LIST, (operation, args, call) => {
      const { batchSizeArgument } = operation;
      const size = batchSizeArgument === undefined ? 1 : args[batchSizeArgument];
      return tracing.upstreamCall(traceOf(), operation.wire, typeof size === 'number' ? size : 1, call);
    }),
  };
}
