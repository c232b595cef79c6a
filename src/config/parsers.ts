/**
 * The parsers settings are built from: how an environment variable's text becomes a number, a flag, a
 * pattern or a list, with the one-line message a bad value stops the start with.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

/** An http(s) address. */
export const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** `true`/`false` (or `1`/`0`). */
export const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A whole number in `[min, max]`. */
export const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** A case-insensitive regular expression. */
export const regex = z.string().transform((source, ctx) => {
  try {
    return new RegExp(source, 'i');
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a valid regular expression' });
    return z.NEVER;
  }
});

/** A comma-separated list, entries trimmed, empty ones dropped. */
export const list = z.string().transform((value) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== ''),
);

/**
 * A comma-separated list of exact origins (`scheme://host[:port]`). A path, a trailing slash or `*` would
 * silently never match a browser's `Origin` header (or match every site), so they stop the start instead.
 */
export const origins = list.transform((entries, ctx) => {
  for (const entry of entries) {
    if (!URL.canParse(entry) || new URL(entry).origin !== entry || !/^https?:/.test(entry)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an origin; list origins like http://localhost:5173, comma-separated`,
      });
      return z.NEVER;
    }
  }
  return entries;
});

/**
 * A comma-separated list of trusted proxies: IP addresses, CIDR ranges, or the names `loopback`,
 * `linklocal`, `uniquelocal` (as Fastify's `trustProxy` takes them).
 */
export const proxies = list.transform((entries, ctx) => {
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const validBits =
      bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(entry);
    if (!named && (family === 0 || !validBits || extra !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an IP address or CIDR range (e.g. 127.0.0.1, 10.0.0.0/8, loopback)`,
      });
      return z.NEVER;
    }
  }
  return entries;
});

/**
 * A well-formed organization code: what the upstream's codes look like (`acme`, `globex`, `org-2`), and
 * nothing that could widen a read's scope (empty, blank, wildcard or separator characters).
 */
export const ORGANIZATION_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A comma-separated list of organization codes. */
export const organizationCodes = list.pipe(
  z.array(z.string().regex(ORGANIZATION_CODE_PATTERN, 'holds a malformed organization code')),
);

/** A comma-separated list of W3C baggage keys (RFC 7230 tokens), e.g. `tenant,synthetic`. */
export const baggageKeys = list.pipe(
  z.array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/, 'holds a malformed baggage key')),
);

/**
 * A comma-separated list of `objectName.field` entries (`com.example.Loan.amount`: the upstream's object name,
 * then the record path), e.g. the fields `npm run upstream:check` found the upstream's `matches` cannot see.
 */
export const objectFields = list.pipe(
  z.array(
    z
      .string()
      .regex(
        /^[A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)+$/,
        'holds a malformed entry (objectName.field, e.g. com.example.Loan.amount)',
      ),
  ),
);
