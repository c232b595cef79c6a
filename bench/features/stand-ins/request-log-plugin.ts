/** Stand-in (feature `log`): an Apollo plugin that does nothing. */
import type * as Real from '../../../src/observability/request-log-plugin.ts';

export * from '../../../src/observability/request-log-plugin.ts';

/** A plugin with no hooks. */
export const createRequestLogPlugin: typeof Real.createRequestLogPlugin = () => ({});
