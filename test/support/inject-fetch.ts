/**
 * `fetch` through Fastify's `inject`: the same `Response` a test would get over the network, with no
 * socket. For tests of the HTTP surface that never need a real connection (status, headers, CORS,
 * GraphiQL, limits, error shapes).
 */
import type { FastifyInstance } from 'fastify';

/** A `fetch` that answers from `app.inject`. */
export type InjectFetch = (url: string, init?: RequestInit) => Promise<Response>;

/** Statuses a `Response` may not carry a body with. */
const NULL_BODY = new Set([101, 204, 205, 304]);

function payloadOf(body: RequestInit['body']): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new Error('injectFetch: only string, URLSearchParams and byte bodies are supported');
}

/** Statuses `fetch` follows (unless `redirect: 'manual'`); 307 and 308 keep the method and body. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A `fetch` for `app`; `url` is a path (`/graphql?…`) or an absolute URL whose origin is ignored. Follows
 * redirects as `fetch` does by default.
 */
export function injectFetch(app: FastifyInstance): InjectFetch {
  const fetchOnce = once(app);
  return async function follow(url, init = {}, hops = 0) {
    const response = await fetchOnce(url, init);
    const location = response.headers.get('location');
    if (init.redirect === 'manual' || !REDIRECTS.has(response.status) || location === null) return response;
    if (hops >= 20) throw new TypeError('injectFetch: too many redirects');
    const keep = response.status === 307 || response.status === 308;
    const { body: _body, method: _method, ...rest } = init;
    return follow(new URL(location, new URL(url, 'http://127.0.0.1')).href, keep ? init : rest, hops + 1);
  };
}

function once(app: FastifyInstance): InjectFetch {
  return async (url, init = {}) => {
    const { pathname, search } = new URL(url, 'http://127.0.0.1');
    // What undici's fetch sends on its own, so that the server sees the same request.
    const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'node' };
    for (const [name, value] of new Headers(init.headers)) headers[name] = value;
    if (init.body instanceof URLSearchParams && headers['content-type'] === undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    }
    const payload = payloadOf(init.body);
    if (typeof payload === 'string' && headers['content-type'] === undefined) {
      headers['content-type'] = 'text/plain;charset=UTF-8';
    }
    const injected = await app.inject({
      method: (init.method ?? 'GET').toUpperCase() as 'GET',
      url: `${pathname}${search}`,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(injected.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
    }
    const status = injected.statusCode;
    return new Response(NULL_BODY.has(status) ? null : injected.rawPayload, {
      status,
      statusText: injected.statusMessage,
      headers: responseHeaders,
    });
  };
}
