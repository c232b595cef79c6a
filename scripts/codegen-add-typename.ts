/**
 * A GraphQL Code Generator document transform (codegen.yml → `documentTransforms`): adds `__typename` the way
 * Apollo Client's cache adds it to what it sends (its own `addTypenameToDocument`: every selection set but
 * the operation's root). With persisted documents the gateway runs the manifest's text, not what the client
 * would have sent, so the manifest must already ask for `__typename` or the cache could not normalise the
 * answers. (The client preset's own transform also adds it at the root, where the gateway's one-login rule
 * refuses it beside `login`.)
 */
import { addTypenameToDocument } from '@apollo/client/utilities';
import type { DocumentNode } from 'graphql';

/** One document of the codegen run (the part this transform reads and writes). */
interface CodegenDocument {
  document?: DocumentNode;
}

/** The transform, in the module shape codegen.yml loads (`transform`). */
export function transform<T extends CodegenDocument>({ documents }: { documents: T[] }): T[] {
  return documents.map((source) =>
    source.document === undefined ? source : { ...source, document: addTypenameToDocument(source.document) },
  );
}
