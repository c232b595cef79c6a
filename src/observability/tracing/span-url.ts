/**
 * URLs as spans may carry them (`url.full`, `url.query`): the upstream's query strings hold the username,
 * the `apiToken`, filter values and a record's data, and a GET to `/graphql` holds the document and its
 * variables. The semantic conventions ask for sensitive values to be replaced by `REDACTED`; a span needs the
 * parameter names only, so every value is, and so are credentials in the authority (`user:pass@`).
 * See https://opentelemetry.io/docs/specs/semconv/registry/attributes/url/.
 */

/** What a value becomes in a span. */
const SPAN_REDACTED = 'REDACTED';

/** A query string (without `?`) with every value replaced: `a=1&b` → `a=REDACTED&b`. */
export function spanQuery(query: string): string {
  if (query === '') return '';
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals < 0 ? pair : `${pair.slice(0, equals)}=${SPAN_REDACTED}`;
    })
    .join('&');
}

/**
 * An absolute URL (or a path) with its query values and userinfo redacted and its fragment dropped; the
 * path is kept (the upstream's paths hold object names and record ids, never a credential).
 */
export function spanUrl(url: string): string {
  const hashAt = url.indexOf('#');
  const withoutFragment = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = withoutFragment.indexOf('?');
  const base = queryAt < 0 ? withoutFragment : withoutFragment.slice(0, queryAt);
  const authority = /^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i;
  const redactedBase = base.replace(authority, `$1${SPAN_REDACTED}:${SPAN_REDACTED}@`);
  return queryAt < 0 ? redactedBase : `${redactedBase}?${spanQuery(withoutFragment.slice(queryAt + 1))}`;
}
