/**
 * Serves trusted documents on the GraphQL route: a request naming a registered document by `documentId` or
 * `extensions.persistedQuery.sha256Hash` runs that document's text, and with `TRUSTED_DOCUMENTS_ONLY=true`
 * every other document is refused with its code before Apollo parses anything. Registered only when
 * `TRUSTED_DOCUMENTS` is set, so it costs nothing otherwise.
 */
import { resolveDocument, type DocumentResolution } from '../trusted/resolve-document.ts';
import type { TrustedDocuments } from '../trusted/trusted-documents.ts';
import { httpErrorBody } from '../errors/http-error.ts';
import type { GraphqlCheck } from './graphql-checks.ts';

/** Options of {@link trustedDocumentsCheck}. */
export interface TrustedDocumentsHookOptions {
  documents: TrustedDocuments;
  /** `TRUSTED_DOCUMENTS_ONLY`. */
  only: boolean;
}

/** `extensions` without `persistedQuery` (Apollo would look its hash up in its own APQ cache), if any is left. */
function withoutPersistedQuery(extensions: unknown): Record<string, unknown> | undefined {
  if (typeof extensions !== 'object' || extensions === null) return undefined;
  const { persistedQuery: _dropped, ...rest } = extensions as Record<string, unknown>;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Apollo answers a malformed `extensions` parameter itself.
    return undefined;
  }
}

/**
 * The check of the GraphQL route (`graphql-checks.ts`): rewrites a request naming a registered document to
 * run its text, and refuses what `TRUSTED_DOCUMENTS_ONLY` does not allow. The last check.
 */
export function trustedDocumentsCheck(options: TrustedDocumentsHookOptions): GraphqlCheck {
  const { documents, only } = options;
  return (request) => {
    let resolution: DocumentResolution = { kind: 'as-sent' };
    if (request.method === 'POST') {
      const body = request.body;
      // Anything but an object is Apollo's to refuse (BAD_REQUEST), with no document to look at.
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
      const fields = body as Record<string, unknown>;
      resolution = resolveDocument(
        { query: fields.query, documentId: fields.documentId, extensions: fields.extensions },
        documents,
        only,
      );
      if (resolution.kind === 'persisted') {
        const { documentId: _id, extensions, ...rest } = fields;
        const kept = withoutPersistedQuery(extensions);
        request.body = { ...rest, query: resolution.query, ...(kept ? { extensions: kept } : {}) };
      }
    } else if (request.method === 'GET') {
      const url = new URL(request.url, 'http://gateway');
      const params = url.searchParams;
      const extensions = parseJson(params.get('extensions'));
      resolution = resolveDocument(
        {
          query: params.get('query') ?? undefined,
          documentId: params.get('documentId') ?? undefined,
          extensions,
        },
        documents,
        only,
      );
      if (resolution.kind === 'persisted') {
        params.delete('documentId');
        params.set('query', resolution.query);
        const kept = withoutPersistedQuery(extensions);
        if (kept) params.set('extensions', JSON.stringify(kept));
        else params.delete('extensions');
        // The Apollo integration reads a GET's operation from the URL's query string.
        request.raw.url = `${url.pathname}?${params.toString()}`;
      }
    }
    if (resolution.kind !== 'refused') return undefined;
    return {
      status: 400,
      code: resolution.code,
      body: httpErrorBody(resolution.code, resolution.message),
    };
  };
}
