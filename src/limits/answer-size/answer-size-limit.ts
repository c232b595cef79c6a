/**
 * Answers bounded before they are built: an Apollo Server plugin that, once the request's operation and
 * variables are known (`didResolveOperation`, POST and GET alike),
 * 1. costs the operation again with the page sizes the request really carries (`MAX_COST`: the validation
 *    rule counted `first: $n` as 1);
 * 2. estimates the answer's characters (`answer-size-estimate.ts`, with what the records of its types
 *    weighed so far) and refuses, with `MAX_ANSWER_BYTES_EXCEEDED` and HTTP 400, an answer over
 *    `MAX_ANSWER_BYTES`, before any resolver runs;
 * 3. admits the request: its estimate is taken from the caller's share of the answers in flight
 *    (`answer-bytes-budget.ts`; refused with `TOO_MANY_REQUESTS`/`answer_bytes_share`, or
 *    `GATEWAY_BUSY`/`answer_bytes` when all callers together fill it), and a meter (`answer-meter.ts`)
 *    counts what the resolvers return against the hard bound.
 * When the meter stopped the answer, `willSendResponse` answers its error alone (no partial data: the
 * fields it stopped would be errors each), then gives the bytes back: the serialized answer is made right
 * after and handed to the socket.
 */
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import type { GatewayConfig } from '../../config/gateway-config.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import type { RecordWeights } from '../../objects/record-weights.ts';
import { answerBytesBusy, answerShareSpent } from '../../errors/graphql-errors.ts';
import { FREE_ANSWER_BYTES, type AnswerBytesBudget } from './answer-bytes-budget.ts';
import { answerTooLarge, RequestAnswerMeter } from './answer-meter.ts';
import { answerShape, type AnswerShape } from './answer-size-estimate.ts';
import { costRefusal } from '../cost-limit-rule.ts';
import { estimateKey, operationEstimates } from '../upstream-call-limit.ts';

/** The settings the limit reads. */
export type AnswerSizeSettings = Pick<
  GatewayConfig,
  'answerLimits' | 'queryLimits' | 'defaultPageSize' | 'maxPageSize' | 'upstreamMaxPageSize'
>;

/** What {@link createAnswerSizeLimit} needs. */
export interface AnswerSizeLimitOptions {
  settings: AnswerSizeSettings;
  budget: AnswerBytesBudget;
  weights: RecordWeights;
  /** Whose share a request takes: its user, `undefined` without a session. */
  holderOf: (context: GraphQLContext) => string | undefined;
}

/** The estimated characters of an answer of `shape`. */
export function estimatedBytes(shape: AnswerShape, weights: RecordWeights): number {
  if (shape.recordUnits === 0) return Math.ceil(shape.fixedBytes);
  let heaviest = 0;
  for (const name of shape.objectNames) heaviest = Math.max(heaviest, weights.weightOf(name));
  // No type named (a page field of a type given only at run time): the weight of an unknown type.
  if (shape.objectNames.length === 0) heaviest = weights.weightOf('');
  return Math.ceil(shape.fixedBytes + shape.recordUnits * heaviest);
}

/** The plugin, for Apollo Server's `plugins`. */
export function createAnswerSizeLimit(options: AnswerSizeLimitOptions): ApolloServerPlugin<GraphQLContext> {
  const { settings, budget, weights } = options;
  const maxBytes = settings.answerLimits.maxAnswerBytes;
  const maxCost = settings.queryLimits.maxCost;
  const pageLimits = {
    defaultPageSize: settings.defaultPageSize,
    maxPageSize: settings.maxPageSize,
    upstreamMaxPageSize: settings.upstreamMaxPageSize,
  };
  // Shapes per parsed document and values of the variables that can change them: the folds are linear in
  // the document, the estimate per request a few multiplications.
  const shapes = operationEstimates<AnswerShape>();

  const listener: GraphQLRequestListener<GraphQLContext> = {
    didResolveOperation({ schema, document, operation, request, contextValue }) {
      if (operation === undefined) return Promise.resolve();
      const key = estimateKey(operation, request.variables);
      let shape = shapes.get(document, key);
      if (shape === undefined) {
        const kinds = shapes.kinds(schema);
        shape = answerShape({ schema, kinds, document, operation, variables: request.variables, pageLimits });
        // Variables that do not fit: execution refuses them before any resolver runs.
        if (shape === undefined) return Promise.resolve();
        shapes.remember(document, key, shape);
      }
      if (shape.cost > maxCost) {
        return Promise.reject(costRefusal(shape.cost, maxCost, { http: { status: 400 } }));
      }
      const estimated = estimatedBytes(shape, weights);
      if (estimated > maxBytes) return Promise.reject(answerTooLarge(maxBytes, estimated));
      const holder = options.holderOf(contextValue);
      const reserved = Math.max(0, estimated - FREE_ANSWER_BYTES);
      // The usual answer fits its free part: no lease, nothing taken.
      const lease = reserved > 0 ? budget.lease(holder) : undefined;
      const refusal = lease?.take(reserved);
      if (refusal === 'share') return Promise.reject(answerShareSpent(budget.shareOf(holder)));
      if (refusal === 'total') return Promise.reject(answerBytesBusy(budget.totalBytes));
      contextValue.answerMeter = new RequestAnswerMeter({
        budget,
        lease,
        holder,
        maxBytes,
        weights,
        allowedBytes: FREE_ANSWER_BYTES + reserved,
      });
      return Promise.resolve();
    },
    willSendResponse({ contextValue, response }) {
      const meter = contextValue.answerMeter;
      if (!(meter instanceof RequestAnswerMeter)) return Promise.resolve();
      contextValue.answerMeter = undefined;
      meter.release();
      const failure = meter.failure;
      if (failure === undefined || response.body.kind !== 'single') return Promise.resolve();
      const result = response.body.singleResult;
      const code = failure.extensions.code;
      const reason = failure.extensions.reason;
      const formatted = result.errors?.find(
        (error) => error.extensions?.code === code && error.extensions?.reason === reason,
      );
      result.data = null;
      result.errors = formatted === undefined ? result.errors : [formatted];
      return Promise.resolve();
    },
  };
  const started = Promise.resolve(listener);
  return { requestDidStart: () => started };
}
