/**
 * Redaction for log lines: no password, token, `apiToken`, session cookie, `authorization` header or
 * configured secret may reach a log, whether it travels as an object key, a URL query parameter, or text
 * inside a message.
 * Three layers, because each catches what the others cannot see:
 * 1. {@link redactObject}: sensitive keys at any depth of a logged object;
 * 2. {@link redactUrl}: sensitive query parameters (and GraphQL's `query`/`variables`, which can carry a
 *    password inline) of a URL before it is logged;
 * 3. {@link createTextRedactor}: the final line as text, for secrets inside strings (error messages).
 */

/** What a redacted value becomes. */
export const REDACTED = '[Redacted]';

// A key naming any of these (anywhere in it, case and `-`/`_` ignored) holds a credential: `x-api-token`,
// `refresh_token`, `sessionSecret`, `proxy-authorization`, `sessionId`, `JSESSIONID`, `PHPSESSID`, `jwt`…
// `key`, `pass` and `auth` count only at the end (`api_key`, `x-api-key`, `privateKey`, `db-pass`, `auth`):
// anywhere they would catch `keyboard` or `passed`. Redacting a harmless `tokenCount` or `monkey` is the price.
const SENSITIVE =
  /password|passwd|passphrase|passcode|pwd|secret|token|jwt|session|sessid|credential|authorization|cookie|apikey|redisurl|(?:key|pass|auth)$/;

// GraphQL-over-HTTP GET parameters: the document and variables can hold `login(password: "…")`.
const GRAPHQL_PARAMS: ReadonlySet<string> = new Set(['query', 'variables', 'extensions']);

/** Whether a key (object key, query parameter, header name) names a credential. */
function isSensitiveKey(key: string): boolean {
  return SENSITIVE.test(key.toLowerCase().replace(/[-_]/g, ''));
}

/**
 * `value` with the values of sensitive keys replaced, at any depth (plain objects and arrays): a copy when
 * something was replaced, `value` itself when nothing was (the usual log line), so nothing is copied for it.
 */
export function redactObject(value: unknown, depth = 0, isSensitive = isSensitiveKey): unknown {
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => redactObject(item, depth + 1, isSensitive));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  // Errors and class instances go to their serializers; the text layer still sees their output.
  if (prototype !== Object.prototype && prototype !== null) return value;
  let out: Record<string, unknown> | undefined;
  const entries = Object.entries(value);
  for (const [index, [key, item]] of entries.entries()) {
    const redacted = isSensitive(key) ? REDACTED : redactObject(item, depth + 1, isSensitive);
    if (out === undefined && redacted !== item) out = Object.fromEntries(entries.slice(0, index));
    if (out !== undefined) out[key] = redacted;
  }
  return out ?? value;
}

/**
 * {@link redactObject} for a logger: the same few keys come back on every line, so each key's verdict is
 * remembered (up to `maxKeys` distinct keys; keys beyond are judged every time).
 */
export function createObjectRedactor(maxKeys = 1_000): (value: unknown) => unknown {
  const verdicts = new Map<string, boolean>();
  const isSensitive = (key: string): boolean => {
    const known = verdicts.get(key);
    if (known !== undefined) return known;
    const sensitive = isSensitiveKey(key);
    if (verdicts.size < maxKeys) verdicts.set(key, sensitive);
    return sensitive;
  };
  return (value) => redactObject(value, 0, isSensitive);
}

/** The URL (absolute or a path with a query) with sensitive and GraphQL query parameters redacted. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const params = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the raw name.
      }
      if (equals < 0) return pair;
      return isSensitiveKey(name) || GRAPHQL_PARAMS.has(name) ? `${rawName}=${REDACTED}` : pair;
    });
  return `${url.slice(0, queryAt)}?${params.join('&')}`;
}

// `"password":"…"` in JSON text (also escaped inside a JSON string: `\"password\":\"…\"`): every string pair
// is matched, and its key judged by {@link isSensitiveKey}, so that the text and the key layers agree.
const JSON_PAIR = /(\\?"([\w.-]{1,64})\\?"\s*:\s*\\?")((?:[^"\\]|\\[^"])*)/g;
// `password=…` in a URL or a form body; the name judged the same way.
const QUERY_PAIR = /([?&;\s]([\w.-]{1,64})=)([^&\s"#]*)/g;
// `password: "…"` (or `deviceToken: "…"`, a secret too) as a GraphQL argument inside a logged document.
const GRAPHQL_ARGUMENT = /(\b(?:password|deviceToken)\s*:\s*\\?")((?:[^"\\]|\\[^"])*)/gi;
// `Bearer …` wherever it appears.
const BEARER = /(\bBearer\s+)[A-Za-z0-9._~+/=-]+/g;
// A `Cookie:` or `Set-Cookie:` header quoted as text: every pair after it, whatever the cookies' names (an
// upstream session cookie need not be called JSESSIONID), up to the end of the line or the JSON string.
const COOKIE_HEADER = /(\b(?:set-)?cookie:\s*)((?:[^"\\\r\n]|\\[^"])*)/gi;
// Every credential above needs one of these: a line without any (most lines) skips the four scans.
const MAY_HOLD_CREDENTIALS = /pass|pwd|token|auth|secret|bearer|jwt|sess|credential|cookie|key/i;

/** A pair's replacement: the value redacted when its key names a credential. */
function redactPair(match: string, prefix: string, key: string): string {
  return isSensitiveKey(key) ? `${prefix}${REDACTED}` : match;
}

/**
 * Returns a function that redacts a whole log line as text: every literal in `secrets` (the session
 * secret, the Redis password), and credential-looking pairs in JSON, URL and GraphQL syntax.
 */
export function createTextRedactor(secrets: readonly (string | undefined)[]): (line: string) => string {
  const literals = secrets.filter((s): s is string => s !== undefined && s.length >= 4);
  return (line) => {
    let out = line;
    for (const secret of literals) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    if (!MAY_HOLD_CREDENTIALS.test(out)) return out;
    return out
      .replace(JSON_PAIR, redactPair)
      .replace(QUERY_PAIR, redactPair)
      .replace(GRAPHQL_ARGUMENT, `$1${REDACTED}`)
      .replace(BEARER, `$1${REDACTED}`)
      .replace(COOKIE_HEADER, `$1${REDACTED}`);
  };
}
