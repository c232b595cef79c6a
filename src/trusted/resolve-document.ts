/**
 * Which document a request runs: the text it sent, or a trusted document it named by `documentId` (the
 * GraphQL-over-HTTP persisted-documents proposal) or by Apollo's `extensions.persistedQuery.sha256Hash`.
 * Decided on the raw request, before any GraphQL parsing, so a refused document costs no parse.
 */
import { ErrorCode } from '../errors/error-codes.ts';
import type { TrustedDocuments } from './trusted-documents.ts';

/** The document fields of a request, as sent (unvalidated). */
export interface DocumentFields {
  query: unknown;
  documentId: unknown;
  extensions: unknown;
}

/** What to run. */
export type DocumentResolution =
  | { kind: 'as-sent' }
  | { kind: 'persisted'; query: string }
  | { kind: 'refused'; code: ErrorCode; message: string };

const AS_SENT: DocumentResolution = { kind: 'as-sent' };

/** The `sha256Hash` of Apollo's persisted-query extension, when the request carries one. */
function persistedQueryHash(extensions: unknown): string | undefined {
  if (typeof extensions !== 'object' || extensions === null) return undefined;
  const persisted: unknown = (extensions as Record<string, unknown>).persistedQuery;
  if (typeof persisted !== 'object' || persisted === null) return undefined;
  const hash: unknown = (persisted as Record<string, unknown>).sha256Hash;
  return typeof hash === 'string' ? hash : undefined;
}

function notFound(what: string): DocumentResolution {
  return {
    kind: 'refused',
    code: ErrorCode.PERSISTED_QUERY_NOT_FOUND,
    message: `No trusted document has the ${what}: rebuild the client and deploy its manifest to the gateway.`,
  };
}

const NOT_IN_LIST: DocumentResolution = {
  kind: 'refused',
  code: ErrorCode.PERSISTED_QUERY_NOT_IN_LIST,
  message:
    'This gateway runs trusted documents only: send the documentId of a registered document, not its text.',
};

/**
 * Resolves the document of one request. `only` is `TRUSTED_DOCUMENTS_ONLY`: then a text runs only when a
 * manifest holds that very text, and an unknown hash is refused instead of left to Apollo's APQ cache.
 */
export function resolveDocument(
  fields: DocumentFields,
  documents: TrustedDocuments,
  only: boolean,
): DocumentResolution {
  const { query, documentId } = fields;
  if (documentId !== undefined) {
    if (typeof documentId !== 'string' || documentId === '') {
      return {
        kind: 'refused',
        code: ErrorCode.BAD_REQUEST,
        message: '`documentId` must be a string.',
      };
    }
    if (query !== undefined) {
      return {
        kind: 'refused',
        code: ErrorCode.BAD_REQUEST,
        message: 'Send either `documentId` or `query`, not both.',
      };
    }
    const text = documents.byId(documentId);
    return text === undefined ? notFound('documentId sent') : { kind: 'persisted', query: text };
  }
  const hash = persistedQueryHash(fields.extensions);
  if (hash !== undefined) {
    const text = documents.bySha256(hash);
    // A text sent with its hash is Apollo's APQ registration: the registered text wins, so both must agree.
    if (text !== undefined && (query === undefined || query === text))
      return { kind: 'persisted', query: text };
    if (!only) return AS_SENT;
    if (typeof query === 'string' && documents.has(query)) return AS_SENT;
    return query === undefined ? notFound('sha256Hash sent') : NOT_IN_LIST;
  }
  if (!only || (typeof query === 'string' && documents.has(query))) return AS_SENT;
  return NOT_IN_LIST;
}
