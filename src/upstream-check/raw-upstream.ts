/**
 * The check's view of the raw wire, for what the gateway's client deliberately hides: the exact wrapper of
 * an answer, whether the callback name comes back, what the upstream does without `pageSize`, how long a
 * request line it takes. Built from the client's own parts (the HTTP transport, the URL join, the callback
 * names), so that what it sends is what the gateway sends, and paced like every other request of the check.
 */
import { isUpstreamError, UpstreamError } from '../errors/upstream-error.ts';
import { createHttpTransport } from '../upstream/client/http-transport.ts';
import { buildRequestPath, parseBaseUrl, type UpstreamBase } from '../upstream/client/join-url.ts';
import { createCallbackNames } from '../upstream/client/answers/jsonp.ts';
import type { UpstreamCredentials, UpstreamUrls, WireOperation } from '../upstream/client/types.ts';
import type { Pacer } from './pacer.ts';
import { answerCharsetOf, charsetParameterOf, decodeIn } from '../upstream/dialect/charset/answer-charset.ts';

/**
 * A raw answer: the body of a 2xx (and its `set-cookie` values, for the form login's session), or the failure
 * (`httpStatus` set for any other status). `text` is the body decoded by the charset it names, UTF-8 when it
 * names none or one the gateway does not know, bad bytes as U+FFFD: the wire as it looks, never refused (the
 * charset probe judges `bytes` and `contentType` itself).
 */
export type RawOutcome =
  | {
      ok: true;
      text: string;
      bytes: Uint8Array;
      contentType: string | undefined;
      setCookie?: string | string[] | undefined;
    }
  | { ok: false; error: UpstreamError };

/** A raw read and the callback name it sent. */
export interface RawRead {
  callback: string;
  /** Bytes of the request target (path and query) sent; the target itself holds the token and is dropped. */
  targetBytes: number;
  outcome: RawOutcome;
}

/** See {@link createRawUpstream}. */
export interface RawUpstream {
  /** `POST` to `api` or `base` (the logins), or `server` (a save, `query` holding its callback). */
  post(
    operation: WireOperation,
    where: 'api' | 'base' | 'server',
    path: string,
    contentType: string,
    body: string,
    query?: Record<string, string>,
    /** A cookie session's `Cookie` header, sent as the gateway's client sends it on writes. */
    cookie?: string,
  ): Promise<RawOutcome>;
  /** A JSONP read on `studio`: `query` plus the credentials and a fresh callback, as the client sends them. */
  read(
    operation: WireOperation,
    credentials: UpstreamCredentials,
    path: string,
    query: Record<string, string | undefined>,
  ): Promise<RawRead>;
  /** The origin of the read address (the gateway counts it in the request-line limit). */
  studioOrigin: string;
  /** The form login's path, and the path prefixes of reads and writes a session cookie must cover. */
  cookiePaths: { login: string; calls: string[] };
  close(): Promise<void>;
}

/** Creates the raw view over the four addresses, each request paced by `pacer`. */
export function createRawUpstream(urls: UpstreamUrls, pacer: Pacer, callTimeoutMillis: number): RawUpstream {
  const bases: Record<'api' | 'base' | 'studio' | 'server', UpstreamBase> = {
    api: parseBaseUrl('API_URL', urls.apiUrl),
    base: parseBaseUrl('BASE_URL', urls.baseUrl),
    studio: parseBaseUrl('STUDIO_URL', urls.studioUrl),
    server: parseBaseUrl('SERVER_URL', urls.serverUrl),
  };
  const serverPrefix = parseBaseUrl('SERVER_URL', urls.serverUrl).prefix;
  const transport = createHttpTransport({
    connectTimeoutMillis: Math.min(callTimeoutMillis, 5_000),
    headersTimeoutMillis: callTimeoutMillis,
    bodyTimeoutMillis: callTimeoutMillis,
    callTimeoutMillis,
    maxResponseBytes: 8 * 1024 * 1024,
    connectionsPerOrigin: 2,
  });
  const callbackName = createCallbackNames();

  async function send(call: Parameters<typeof transport.send>[0]): Promise<RawOutcome> {
    await pacer.pace();
    let setCookie: string | string[] | undefined;
    try {
      const { body, contentType } = await transport.send({
        ...call,
        onSetCookie: (values) => {
          setCookie = values;
        },
      });
      return { ok: true, text: looseText(body, contentType), bytes: body, contentType, setCookie };
    } catch (error) {
      if (isUpstreamError(error)) return { ok: false, error };
      return {
        ok: false,
        error: new UpstreamError('internal', 'the check failed before sending', {
          operation: call.operation,
        }),
      };
    }
  }

  return {
    studioOrigin: bases.studio.origin,
    cookiePaths: {
      login: `${bases.base.prefix}/app/login.jsp`,
      calls: [`${bases.studio.prefix}/studio/jsonp/`, `${serverPrefix}/studio/jsonp/`],
    },
    post(operation, where, path, contentType, body, query, cookie) {
      const base = bases[where];
      return send({
        operation,
        method: 'POST',
        origin: base.origin,
        path: buildRequestPath(base, path, query),
        headers: { 'content-type': contentType, ...(cookie === undefined ? {} : { cookie }) },
        body,
      });
    },
    async read(operation, credentials, path, query) {
      const callback = callbackName();
      const target = buildRequestPath(bases.studio, path, {
        ...query,
        username: credentials.username,
        // A cookie session sends no token, as the gateway's client (`client.ts`).
        apiToken: credentials.apiToken === '' ? undefined : credentials.apiToken,
        applicationCode: credentials.applicationCode,
        organizationCode: credentials.organizationCode,
        callback,
      });
      const { sessionCookie } = credentials;
      const outcome = await send({
        operation,
        method: 'GET',
        origin: bases.studio.origin,
        path: target,
        ...(sessionCookie === undefined ? {} : { headers: { cookie: sessionCookie } }),
      });
      return { callback, targetBytes: target.length, outcome };
    },
    close: () => transport.close(),
  };
}

/** See {@link RawOutcome}. */
function looseText(bytes: Uint8Array, contentType: string | undefined): string {
  const label = charsetParameterOf(contentType);
  const charset = label === undefined ? undefined : answerCharsetOf(label);
  if (charset === undefined || charset === 'utf-8') return Buffer.from(bytes).toString('utf8');
  return decodeIn(bytes, charset);
}
