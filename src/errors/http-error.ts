/**
 * The errors the gateway answers outside GraphQL execution (a malformed body, a wrong method or path, a
 * slow client), in the GraphQL-over-HTTP shape `{"errors":[{"message","extensions":{"code"}}]}`, so that a
 * GraphQL client shows them like any other error instead of failing to read Fastify's or Node's own shapes.
 */
import { blameOfCode } from './blame.ts';

/** The wire form of one HTTP-level error. */
export interface HttpErrorBody {
  errors: [{ message: string; extensions: { code: string } & Record<string, unknown> }];
}

/**
 * The body of an HTTP-level error; `extensions` adds to the code (never replaces it). Its blame is the
 * table's for the code and `extensions.reason` (`blame.ts`).
 */
export function httpErrorBody(
  code: string,
  message: string,
  extensions: Record<string, unknown> = {},
): HttpErrorBody {
  const blame = blameOfCode(code, extensions.reason);
  return { errors: [{ message, extensions: { blame, ...extensions, code } }] };
}

/**
 * Headers every answer of `/graphql` carries, errors included: a GraphQL answer is per caller (a session
 * token travels with it), so no cache may keep it, and no browser may sniff it into something runnable.
 */
export const NO_STORE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** The content type of every error body. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * A whole HTTP/1.1 error response as bytes to write on a raw socket, for the errors Node raises before
 * Fastify has a request to answer (a slow or malformed request). It closes the connection: the request
 * stream is in an unknown state, so nothing more may be read from it.
 */
export function rawHttpErrorResponse(status: 400 | 408 | 431, code: string, message: string): string {
  const body = JSON.stringify(httpErrorBody(code, message));
  return [
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}`,
    `content-type: ${JSON_CONTENT_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(NO_STORE_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'connection: close',
    '',
    body,
  ].join('\r\n');
}
