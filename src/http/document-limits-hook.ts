/**
 * Refuses a GraphQL document over its size limits at the HTTP edge, before Apollo hashes, parses or caches
 * it: text over `MAX_DOCUMENT_BYTES` (413 `DOCUMENT_TOO_LARGE`) and comments over `MAX_COMMENT_BYTES`
 * (400 `COMMENTS_TOO_LARGE`). Parsing is where a document's cost multiplies (a token object per comment, the
 * whole text kept by the tree), so the caller's mistake is named before any of it is paid.
 *
 * Only text the caller sent is measured: a trusted document (`documentId`, a registered hash) comes from the
 * operator's manifests, so this check runs before the trusted-documents check replaces the request's text.
 */
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../errors/error-codes.ts';
import { limitErrorBody } from '../errors/graphql-errors.ts';
import { commentBytes } from '../limits/comment-bytes.ts';
import type { GraphqlCheck } from './graphql-checks.ts';

/** Options of {@link documentLimitsCheck}. */
export interface DocumentLimitsOptions {
  /** `MAX_DOCUMENT_BYTES`. */
  maxBytes: number;
  /** `MAX_COMMENT_BYTES`. */
  maxCommentBytes: number;
}

/** How a document over a limit is answered. */
interface Refusal {
  status: 400 | 413;
  code: string;
  body: ReturnType<typeof limitErrorBody>;
}

/** A refusal with `status` and the limit error body naming `setting` and its `limit`. */
function refusal(
  status: Refusal['status'],
  code: typeof ErrorCode.DOCUMENT_TOO_LARGE | typeof ErrorCode.COMMENTS_TOO_LARGE,
  message: string,
  setting: string,
  limit: number,
): Refusal {
  return { status, code, body: limitErrorBody(code, message, setting, limit) };
}

/** The document text the caller sent, if any: a POST body's `query`, a GET's `query` parameter. */
function sentDocument(request: FastifyRequest): string | undefined {
  if (request.method === 'POST') {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const query = (body as Record<string, unknown>).query;
    return typeof query === 'string' ? query : undefined;
  }
  if (request.method === 'GET') {
    const queryAt = request.url.indexOf('?');
    if (queryAt < 0) return undefined;
    return new URLSearchParams(request.url.slice(queryAt + 1)).get('query') ?? undefined;
  }
  return undefined;
}

/** Checks `text` against the limits: its length first (cheap), then its comments (one pass). */
function checkDocument(
  text: string,
  limits: Pick<DocumentLimitsOptions, 'maxBytes' | 'maxCommentBytes'>,
): Refusal | undefined {
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.maxBytes) {
    return refusal(
      413,
      ErrorCode.DOCUMENT_TOO_LARGE,
      `The GraphQL document is ${bytes} bytes, over the ${limits.maxBytes} this gateway accepts: send a smaller document.`,
      'MAX_DOCUMENT_BYTES',
      limits.maxBytes,
    );
  }
  const comments = commentBytes(text);
  if (comments > limits.maxCommentBytes) {
    return refusal(
      400,
      ErrorCode.COMMENTS_TOO_LARGE,
      `The GraphQL document's comments take ${comments} bytes, over the ${limits.maxCommentBytes} this gateway accepts: send the document without its comments.`,
      'MAX_COMMENT_BYTES',
      limits.maxCommentBytes,
    );
  }
  return undefined;
}

/** The check of the GraphQL route (`graphql-checks.ts`); before the trusted documents' check. */
export function documentLimitsCheck(limits: DocumentLimitsOptions): GraphqlCheck {
  return (request) => {
    const text = sentDocument(request);
    return text === undefined ? undefined : checkDocument(text, limits);
  };
}
