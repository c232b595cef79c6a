/**
 * GraphQL Code Generator's client preset's own `__typename` transform, under a path `codegen.yml` can name
 * (YAML cannot import it). The gateway runs a persisted document's manifest text, not what Apollo Client
 * would have sent, so every selection set must already ask for `__typename`, or Apollo's cache cannot
 * normalise the answers. A team's own `codegen.ts` imports `addTypenameSelectionDocumentTransform` directly.
 */
import { addTypenameSelectionDocumentTransform } from '@graphql-codegen/client-preset';

/** The transform codegen calls for the client preset's documents. */
export const { transform } = addTypenameSelectionDocumentTransform;
