/** Stand-in (feature `coalescing`): every read goes to the upstream, shared or not. */
import type * as Real from '../../../src/upstream/batching/coalesce.ts';

export * from '../../../src/upstream/batching/coalesce.ts';

/** The client itself, with nothing in flight to report. */
export const withCoalescing: typeof Real.withCoalescing = (client) => ({ ...client, inflightCount: () => 0 });
