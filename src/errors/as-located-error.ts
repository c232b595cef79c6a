/**
 * graphql-jit's errors made as graphql-js's `locatedError` makes them, which Apollo Server and
 * `formatError` read (`src/execution/compiled-executor.ts`).
 */
// By file, not from `graphql`: the CommonJS copy Apollo Server checks errors against, also where a bundler
// or vitest would give this file the ESM copy (whose errors Apollo would not take for GraphQL errors).
import { GraphQLError } from 'graphql/error/GraphQLError.js';

/**
 * A compiled query's error as graphql-js's `locatedError` makes it, which Apollo Server and `formatError`
 * read: graphql-jit's keeps no `extensions` object when the thrown error has none (Apollo's error
 * normalization then fails), and none of its own errors carries an `originalError`.
 */
export function asLocatedError(error: GraphQLError): GraphQLError {
  const original: unknown = error.originalError;
  // Duck-typed, as graphql-js's own check: an error that knows its path already is left as it is.
  if (isLocated(original)) return original;
  const cause = original instanceof Error ? original : new Error(error.message);
  const { nodes, source, positions } = cause as Partial<Pick<GraphQLError, 'nodes' | 'source' | 'positions'>>;
  const located = new GraphQLError(cause.message, {
    ...(nodes === undefined ? {} : { nodes }),
    ...(source === undefined ? {} : { source }),
    ...(positions === undefined ? {} : { positions }),
    ...(error.path === undefined ? {} : { path: error.path }),
    originalError: cause,
  });
  // graphql-jit keeps the field's locations, not the nodes graphql-js computes them from.
  if (nodes === undefined && positions === undefined) Object.assign(located, { locations: error.locations });
  return located;
}

/** A GraphQL error with its path, from whichever copy of graphql-js (a resolver's may be the ESM one). */
function isLocated(value: unknown): value is GraphQLError {
  return value instanceof Error && Array.isArray((value as { path?: unknown }).path);
}
