/**
 * Compiled execution: each document is turned once into a function (graphql-jit, as Mercurius does) that
 * answers it without walking the document again on every request, the way graphql-js's `execute` does.
 * Apollo Server keeps everything else (parsing, validation and the limits, the plugins, `formatError`):
 * this is only its executor, handed over through its gateway interface (`executor-gateway.ts`).
 *
 * graphql-js still answers, with the same schema, context and variables:
 * - the operations `interpreted-operations.ts` names from the document alone (mutations, subscriptions,
 *   `@defer`/`@stream`, custom scalars' literals, a key selected twice with `@skip`/`@include`), and
 *   documents `compileQuery` refuses;
 * - a request whose variables are refused: graphql-jit coerces them with its own wording, so graphql-js
 *   runs again to refuse them in its words (and with the variable's node, which Apollo's HTTP 400 reads);
 * - a query whose whole `data` a failed non-null field nulled, with more than one error: graphql-js stops
 *   listening at that failure, graphql-jit lists errors raised after it too (the fields already running),
 *   so graphql-js runs again (the request's loaders answer from their cache most reads it repeats) to list
 *   the same errors;
 * - a request whose plugins watch each resolver (`willResolveField`, the resolver spans of
 *   `TRACE_RESOLVERS`): Apollo wraps the schema's resolvers on the first such request, after documents
 *   already compiled took the unwrapped ones.
 */
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import type { ExecutionResult, GraphQLSchema } from 'graphql';
// By file, not from `graphql`: the CommonJS copy that Apollo Server, graphql-jit and the schema's classes
// are, also where a bundler or vitest would give this file the ESM copy (whose `execute` would refuse the
// schema as another realm's, and whose errors Apollo would not take for GraphQL errors).
import { execute } from 'graphql/execution/execute.js';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { asLocatedError } from '../errors/as-located-error.ts';
import { interpretedReason } from './interpreted-operations.ts';

/** Apollo Server's gateway, as its constructor takes it. */
export type GatewayInterface = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
/** What a gateway's `load` hands Apollo to execute every operation with. */
export type GatewayExecutor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;
type GatewayRequestContext = Parameters<GatewayExecutor>[0];

/** Options of {@link createCompiledExecutor}. */
export interface CompiledExecutorOptions {
  /** The heap the kept compiled documents may take, by their weight; the least recently used go first. */
  maxBytes: number;
}

/**
 * What the compiled documents may hold by default. The documents a gateway serves are its clients' few
 * dozen operations; this holds a few hundred of ordinary size, while distinct documents sent to fill it
 * (anonymous ones too) can take no more of the 256 MiB old space than this.
 */
export const DEFAULT_MAX_COMPILED_BYTES = 32 * 1024 * 1024;

/**
 * A compiled document's weight: the functions graphql-jit generates grow with the selections, measured on
 * the gateway's schema at 58-385 bytes of heap per character of source (1.3 KiB for `{ __typename }`, 68-78
 * KiB for pages of 180-300 characters with references): counted at 512 per character, at least 16 KiB.
 */
function weightOf(source: string | undefined): number {
  return Math.max(16 * 1024, (source?.length ?? 0) * 512);
}

/** The cache's entry for a document graphql-js answers (lru-cache keeps objects, not `undefined`). */
const INTERPRETED = { interpreted: true } as const;
type Entry = CompiledQuery | typeof INTERPRETED;

/**
 * The description of the symbol Apollo Server sets on a request's context when a plugin watches each
 * resolver (`symbolExecutionDispatcherWillResolveField`, which it does not export).
 */
const RESOLVER_HOOKS = 'apolloServerExecutionDispatcherWillResolveField';

function watchesResolvers(context: object): boolean {
  return Object.getOwnPropertySymbols(context).some((symbol) => symbol.description === RESOLVER_HOOKS);
}

/** The compiled form of the request's document and operation, or {@link INTERPRETED}. */
function compile(schema: GraphQLSchema, request: GatewayRequestContext): Entry {
  if (interpretedReason(schema, request.document, request.operation) !== undefined) return INTERPRETED;
  const compiled = compileQuery(schema, request.document, request.request.operationName);
  return isCompiledQuery(compiled) ? compiled : INTERPRETED;
}

/**
 * The executor Apollo Server runs every validated operation with: the document compiled once per schema,
 * kept by the hash Apollo keys its document cache with and the operation name.
 */
export function createCompiledExecutor(
  schema: GraphQLSchema,
  options: CompiledExecutorOptions = { maxBytes: DEFAULT_MAX_COMPILED_BYTES },
): GatewayExecutor & { heldBytes(): number } {
  const compiledDocuments = new LRUCache<string, Entry>({ maxSize: options.maxBytes });
  // A document that would take over a tenth of the room is executed by graphql-js, never compiled and kept.
  const largest = options.maxBytes / 10;

  function interpret(request: GatewayRequestContext): Promise<ExecutionResult> {
    return Promise.resolve(
      execute({
        schema,
        document: request.document,
        contextValue: request.context,
        variableValues: request.request.variables,
        operationName: request.request.operationName,
      }),
    );
  }

  const executor: GatewayExecutor = async (request) => {
    const key = `${request.queryHash}\u0000${request.request.operationName ?? ''}`;
    let entry = compiledDocuments.get(key);
    if (entry === undefined) {
      const weight = weightOf(request.source);
      entry = weight > largest ? INTERPRETED : compile(schema, request);
      compiledDocuments.set(key, entry, { size: 'interpreted' in entry ? 64 : weight });
    }
    if ('interpreted' in entry || watchesResolvers(request.context)) return interpret(request);
    const result = await entry.query(undefined, request.context, request.request.variables);
    // Only refused variables leave no `data` at all.
    if (!('data' in result)) return interpret(request);
    if (result.data === null && (result.errors?.length ?? 0) > 1) return interpret(request);
    return result.errors === undefined ? result : { ...result, errors: result.errors.map(asLocatedError) };
  };
  /** The weight of what is kept (the bound's tests). */
  return Object.assign(executor, { heldBytes: () => compiledDocuments.calculatedSize });
}
