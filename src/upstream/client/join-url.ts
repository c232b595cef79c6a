/**
 * Joining the configured upstream base addresses with operation paths. Base addresses may carry a path
 * prefix (`http://host:8080/legacy/api`) with or without a trailing slash; `new URL(path, base)` would drop
 * the last prefix segment when the slash is missing, so the join is done by hand.
 */

/** A validated base address: its origin (one connection pool each) and its path prefix without trailing `/`. */
export interface UpstreamBase {
  origin: string;
  prefix: string;
}

/**
 * Validates one configured base address.
 *
 * @param setting - the option's name, for the error message
 * @throws TypeError when the value is not an http(s) URL without query, fragment or credentials
 */
export function parseBaseUrl(setting: string, value: string): UpstreamBase {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${setting} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${setting} must use http or https, not ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new TypeError(`${setting} must not carry a query string, a fragment or credentials`);
  }
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

/**
 * The request target under `base`: `path` starts with `/` and has its dynamic segments already encoded;
 * `query` entries whose value is `undefined` are left out. Values are percent-encoded with
 * `encodeURIComponent`, which any form decoder reads back exactly (URLSearchParams would also do, at twice
 * the cost, on every upstream call).
 */
export function buildRequestPath(
  base: UpstreamBase,
  path: string,
  query: Readonly<Record<string, string | undefined>> = {},
): string {
  let search = '';
  for (const key in query) {
    const value = query[key];
    if (value === undefined || !Object.hasOwn(query, key)) continue;
    search += `${search === '' ? '?' : '&'}${encodeComponent(key)}=${encodeComponent(value)}`;
  }
  return `${base.prefix}${path}${search}`;
}

/** What `encodeURIComponent` leaves as it is (RFC 3986 unreserved, plus `!*'()`). */
const UNENCODED = /^[A-Za-z0-9\-_.!~*'()]*$/;

/**
 * `encodeURIComponent(value)`, without a new string when nothing needs encoding: most parameters (names,
 * tokens, codes, page numbers, the callback) are plain, and every upstream call sends about ten.
 */
function encodeComponent(value: string): string {
  return UNENCODED.test(value) ? value : encodeURIComponent(value);
}
