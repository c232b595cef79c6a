/** Stand-in (feature `limits`): no estimate of a request's upstream calls before it runs. */
import type * as Real from '../../../src/limits/upstream-call-limit.ts';

export * from '../../../src/limits/upstream-call-limit.ts';

/** A plugin with no hooks. */
export const createUpstreamCallLimit: typeof Real.createUpstreamCallLimit = () => ({});
