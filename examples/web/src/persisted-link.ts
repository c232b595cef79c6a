/**
 * The production build sends trusted documents: each operation's id from GraphQL Code Generator's manifest
 * (`__meta__.hash`, written by the client preset with `persistedDocuments: true`) instead of its text, so
 * the gateway can run with `TRUSTED_DOCUMENTS_ONLY=true`. Sent as Apollo's `persistedQuery` extension by
 * Apollo Client's own link.
 */
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import type { DocumentNode } from 'graphql';

/** The manifest id of a generated document, as the hex `sha256Hash` of Apollo's extension. */
export function documentHash(document: DocumentNode): string {
  const meta: unknown = (document as DocumentNode & { __meta__?: unknown }).__meta__;
  const hash =
    typeof meta === 'object' && meta !== null && 'hash' in meta && typeof meta.hash === 'string'
      ? meta.hash
      : undefined;
  // A document written outside `graphql()` has no id, and the gateway would refuse its text anyway.
  if (hash === undefined) throw new Error('This operation is not in the persisted-documents manifest.');
  return hash.replace(/^sha256:/, '');
}

/**
 * The link. It never falls back to sending the text: a gateway that does not know an id runs an older
 * manifest, and its refusal (`PERSISTED_QUERY_NOT_FOUND`) is the message to show.
 */
export function createPersistedLink(): PersistedQueryLink {
  return new PersistedQueryLink({ generateHash: documentHash, retry: () => false, disable: () => false });
}
