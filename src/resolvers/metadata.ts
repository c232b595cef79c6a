/** `metadata(objectId, category)`. */
import type { Resolvers } from '../generated/resolvers-types.ts';
import { readMetadata } from '../objects/read-object.ts';
import { isUpstreamError } from '../errors/upstream-error.ts';

const NOT_FOUND = /not found|no such|unknown/i;

/** Resolvers of object metadata. */
export const metadataResolvers: Resolvers = {
  Query: {
    async metadata(_parent, { objectId, category }, ctx) {
      const auth = ctx.requireSession();
      // Generated types assume the SDL default, but a client may still send `category: null` explicitly.
      const resolvedCategory = typeof category === 'string' ? category : 'none';
      try {
        const data = await readMetadata(auth, objectId, resolvedCategory);
        return { objectId, category: resolvedCategory, data };
      } catch (error) {
        // The schema promises `null` when the upstream has no metadata for the id: an answer, not an error.
        if (
          isUpstreamError(error) &&
          (error.kind === 'not_found' ||
            (error.kind === 'service' && NOT_FOUND.test(error.upstreamMessage ?? '')))
        ) {
          return null;
        }
        throw error;
      }
    },
  },
  ObjectMetadata: {
    // Counted against the answer's bound as it is returned (`src/limits/answer-size/answer-meter.ts`).
    data: (metadata, _args, ctx) => {
      ctx.answerMeter?.charge(metadata.data);
      return metadata.data;
    },
  },
};
