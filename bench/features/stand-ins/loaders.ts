/**
 * Stand-in (feature `loader`): `object(objectName, id)` reads its one id with a direct `getAll` (the call the
 * batch function makes for a tick holding one id), without DataLoader; the other loaders are the real ones.
 */
import { escapeJavaRegex } from '../../../src/upstream/regex-escape.ts';
import * as Real from '../../../src/upstream/loaders.ts';

export * from '../../../src/upstream/loaders.ts';

/** The real loaders with a direct single-id read. */
export const createLoaders: typeof Real.createLoaders = (options) => {
  const { client, credentials } = options;
  return {
    ...Real.createLoaders(options),
    async object(objectName, id) {
      const criteria = [{ fieldName: '_id', operator: 'matches', value: escapeJavaRegex(id) }];
      const page = await client.getAll(credentials, objectName, criteria, 1, 0);
      return page.records.find((record) => record._id === id) ?? null;
    },
  };
};
