/** Stand-in (feature `limits`): no validation rules and no parser limits. */
import type * as Real from '../../../src/limits/armor.ts';

export * from '../../../src/limits/armor.ts';

/** No limits at all. */
export const createQueryLimits: typeof Real.createQueryLimits = () => ({
  validationRules: [],
  parseOptions: {},
});
